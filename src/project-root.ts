import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The folder holding package.json, found from wherever this code runs: src/ under tsx, or
 * dist/ once bundled by `npm run build`, where paths relative to one module's own file no
 * longer hold.
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
  return dir
}

export const PROJECT_ROOT = findProjectRoot()
