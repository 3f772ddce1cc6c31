#!/usr/bin/env node
// The package's `tourdesk` bin: the TypeScript CLI through tsx's loader, as `npm run tourdesk` runs it.
import { register } from 'tsx/esm/api'

register()
await import('./main.ts')
