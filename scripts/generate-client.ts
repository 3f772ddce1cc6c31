/**
 * `npm run client:generate`: writes client/guest-api.d.ts, the types of the guest API, with
 * openapi-typescript from the openapi.json the service serves. The document is asked of an
 * app built on an in-memory SQLite database with the bundled demo catalog, through Fastify's
 * inject: no port, no file, nothing left behind. The document is the same for every instance
 * but its server URL, which the types do not carry (createGuestClient takes the base URL).
 * test/client/guest-client.test.ts fails when the committed file is not what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'
import { buildApp } from '../src/app.ts'
import { readSettings } from '../src/config/env.ts'
import { closeContext, createContext } from '../src/context.ts'
import { systemClock } from '../src/domain/clock.ts'
import { PROJECT_ROOT } from '../src/project-root.ts'

export const GUEST_CLIENT_TYPES_PATH = join(PROJECT_ROOT, 'client', 'guest-api.d.ts')

/** The guest openapi.json exactly as GET /api/<prefix>/openapi.json answers it. */
export async function guestOpenApiDocument(): Promise<Record<string, unknown>> {
  // Settings of its own, so nothing in this shell's environment (TOURDESK_CONFIG, TOURDESK_HOLD_SECONDS …) shapes the document.
  const settings = readSettings({ DATABASE_URL: 'sqlite::memory:', TOURDESK_RATE_LIMITS: 'off' })
  const { prefix } = JSON.parse(readFileSync(settings.catalogPath, 'utf8')).instances[0]
  const context = await createContext(settings, systemClock, { warn: (_details, message) => process.stderr.write(`${message}\n`) })
  try {
    const app = await buildApp(context, { admin: false })
    try {
      const response = await app.inject({ method: 'GET', url: `/api/${prefix}/openapi.json` })
      if (response.statusCode !== 200) throw new Error(`openapi.json answered ${response.statusCode}: ${response.body}`)
      return response.json()
    } finally {
      await app.close()
    }
  } finally {
    await closeContext(context)
  }
}

/** The text of client/guest-api.d.ts. */
export async function guestClientTypes(): Promise<string> {
  const { servers: _servers, ...document } = await guestOpenApiDocument()
  const ast = await openapiTS(JSON.stringify(document), { silent: true })
  return COMMENT_HEADER + astToString(ast)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(GUEST_CLIENT_TYPES_PATH, await guestClientTypes())
  process.stdout.write(`wrote ${GUEST_CLIENT_TYPES_PATH}\n`)
}
