import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { test } from 'node:test'
import ts from 'typescript'

/**
 * The floors of src/, highest first (README.md, "Project layout"). A folder may import its own
 * floor and the floors below it, never one above; folders of one floor may import each other
 * as long as no two folders import each other, directly or round a loop.
 */
const FLOORS: Array<{ floor: string, folders: string[] }> = [
  // The files of src/ itself (server, app, context, migrate) and the CLI build the services and start them.
  { floor: 'composition', folders: ['(src)', 'cli'] },
  { floor: 'surfaces', folders: ['api', 'admin', 'octo', 'web'] },
  { floor: 'http', folders: ['http'] },
  { floor: 'services', folders: ['services', 'catalog', 'notify', 'jobs'] },
  { floor: 'store', folders: ['store'] },
  { floor: 'domain', folders: ['domain'] },
  // The vocabulary and what every floor reads: records, error codes, settings, the checkout's root.
  { floor: 'schemas', folders: ['schemas', 'errors', 'config', 'project-root.ts'] },
]

/**
 * Imports that break the ladder today and are being moved by work under way; each names its
 * file and the import. Remove an entry when its import goes: an entry that matches nothing fails.
 */
const KNOWN_EXCEPTIONS: string[] = []

const SRC = resolve(import.meta.dirname, '../../src')

/** The folder of src/ a file belongs to; a file of src/ itself is the composition root, except project-root.ts. */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split('/')
  if (parts.length > 1) return parts[0]
  return parts[0] === 'project-root.ts' ? parts[0] : '(src)'
}

function floorOf(folder: string): number {
  const index = FLOORS.findIndex((f) => f.folders.includes(folder))
  assert.notEqual(index, -1, `src/${folder} is on no floor: add it to FLOORS in test/architecture/import-rules.test.ts`)
  return FLOORS.length - index
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|js)$/.test(entry.name) ? [path] : []
  })
}

interface Import { from: string, to: string, fromFolder: string, toFolder: string }

/** Every relative import in src/ (static, type-only, re-exports and import()), between two folders. */
function importsBetweenFolders(): Import[] {
  return sourceFiles(SRC).flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => {
        const target = resolve(dirname(file), fileName)
        return { from: relative(SRC, file), to: relative(SRC, target), fromFolder: folderOf(file), toFolder: folderOf(target) }
      })
      .filter((i) => i.fromFolder !== i.toFolder)
  })
}

const describe = (i: Import) => `src/${i.from} imports src/${i.to}`
const imports = importsBetweenFolders()
const excepted = (i: Import) => KNOWN_EXCEPTIONS.includes(describe(i))

test('every folder of src/ imports only its own floor and the floors below it', () => {
  const upward = imports.filter((i) => !excepted(i) && floorOf(i.toFolder) > floorOf(i.fromFolder))
    .map((i) => `${describe(i)}: ${FLOORS[FLOORS.length - floorOf(i.fromFolder)].floor} may not import ${FLOORS[FLOORS.length - floorOf(i.toFolder)].floor}`)
  assert.deepEqual(upward, [])
})

test('no two folders of src/ import each other, directly or round a loop', () => {
  const edges = new Map<string, Set<string>>()
  for (const i of imports.filter((i) => !excepted(i))) edges.set(i.fromFolder, (edges.get(i.fromFolder) ?? new Set()).add(i.toFolder))
  const reachable = (from: string): Set<string> => {
    const seen = new Set<string>()
    const visit = (folder: string) => {
      for (const next of edges.get(folder) ?? []) if (!seen.has(next)) { seen.add(next); visit(next) }
    }
    visit(from)
    return seen
  }
  const reach = new Map([...edges.keys()].map((folder) => [folder, reachable(folder)]))
  // An import from a folder to one that leads back to it closes a loop.
  const closing = new Map<string, Import>()
  for (const i of imports) {
    if (!excepted(i) && reach.get(i.toFolder)?.has(i.fromFolder)) closing.set(`src/${i.fromFolder} → src/${i.toFolder}`, closing.get(`src/${i.fromFolder} → src/${i.toFolder}`) ?? i)
  }
  assert.deepEqual([...closing].map(([step, i]) => `${step} leads back (as ${describe(i)})`), [])
})

test('services never import a surface or http, schemas never the store, domain or services, the store never a service or surface', () => {
  // Named by issue 23: the directions the code once took. FLOORS forbids them too; this says it in so many words.
  const FORBIDDEN: Record<string, string[]> = {
    services: ['api', 'admin', 'octo', 'web', 'http'],
    catalog: ['api', 'admin', 'octo', 'web', 'http'],
    notify: ['api', 'admin', 'octo', 'web', 'http'],
    jobs: ['api', 'admin', 'octo', 'web', 'http'],
    schemas: ['store', 'domain', 'services'],
    store: ['services', 'api', 'admin'],
  }
  assert.deepEqual(imports.filter((i) => !excepted(i) && FORBIDDEN[i.fromFolder]?.includes(i.toFolder)).map(describe), [])
})

test('every known exception still names an import that exists', () => {
  const present = new Set(imports.map(describe))
  assert.deepEqual(KNOWN_EXCEPTIONS.filter((e) => !present.has(e)), [])
})

test('only src/store speaks SQL: no file outside it imports a driver, Kysely or the write plans\' statement', () => {
  const speaksSql = sourceFiles(SRC).filter((file) => folderOf(file) !== 'store').flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const drivers = importedFiles.filter(({ fileName }) => ['kysely', 'pg', 'better-sqlite3', 'better-sqlite3-13'].includes(fileName)).map(({ fileName }) => fileName)
    const statements = /import\s*{[^}]*\bstatement\b[^}]*}\s*from\s*['"][./]*store\/write-plan\.ts['"]/.test(text) ? ['statement'] : []
    return [...drivers, ...statements].map((what) => `src/${relative(SRC, file)} imports ${what}`)
  })
  assert.deepEqual(speaksSql, [])
})
