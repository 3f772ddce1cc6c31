import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { PROJECT_ROOT } from '../../src/project-root.ts'

// npm runs (or, from npm 11.16 on, warns about) the install scripts of dependencies; the
// README ("Node.js versions") says which run and why. A dependency that brings one must be
// named in package.json's allowScripts, allowed or denied, or `npm ci` warns again.

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall']

/** Every installed package's folder under node_modules, scoped and nested ones included. */
function packageFolders(modules: string): string[] {
  if (!existsSync(modules)) return []
  const found: string[] = []
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const folder = join(modules, entry.name)
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(folder, { withFileTypes: true })) {
        if (scoped.isDirectory()) found.push(join(folder, scoped.name), ...packageFolders(join(folder, scoped.name, 'node_modules')))
      }
    } else {
      found.push(folder, ...packageFolders(join(folder, 'node_modules')))
    }
  }
  return found
}

test("every installed dependency with an install script is named in package.json's allowScripts", () => {
  const allowScripts = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).allowScripts as Record<string, boolean>
  const unreviewed = new Set<string>()
  for (const folder of packageFolders(join(PROJECT_ROOT, 'node_modules'))) {
    const manifestPath = join(folder, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string, scripts?: Record<string, string> }
    // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own.
    const scripted = INSTALL_SCRIPTS.some((name) => manifest.scripts?.[name]) || existsSync(join(folder, 'binding.gyp'))
    if (scripted && manifest.name && !(manifest.name in allowScripts)) unreviewed.add(manifest.name)
  }
  assert.deepEqual([...unreviewed], [], 'install scripts that allowScripts neither allows nor denies')
  assert.equal(allowScripts['@scarf/scarf'], false, "Scarf's analytics report is denied")
})
