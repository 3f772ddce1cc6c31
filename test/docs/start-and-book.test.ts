import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { PROJECT_ROOT } from '../../src/project-root.ts'
import { runReadmeWalkThrough } from '../helpers/readme-walkthrough.ts'
import { startServer } from '../helpers/server-process.ts'

// The service as a newcomer starts it: `npm start`'s bundle (built here into a folder of its
// own, see scripts/build.ts), run with `npm start`'s node flags on the real clock and a fresh
// SQLite file, then the README's curl walk-through against it. scripts/other-node-lines.sh
// runs this on Node 24 and 26, where the SQLite driver is another release
// (src/store/sqlite-binding.ts) and a native crash would end the process.

const run = promisify(execFile)

/** `npm start`'s node arguments, with `bundle` in place of dist/server.js. */
function startArguments(bundle: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  const [command, ...args] = scripts.start.split(/\s+/)
  assert.equal(command, 'node', `npm start runs node (${scripts.start})`)
  assert.ok(args.includes('dist/server.js'), `npm start runs dist/server.js (${scripts.start})`)
  return args.map((arg) => arg === 'dist/server.js' ? bundle : arg)
}

test("npm start's bundle starts and takes a booking through the README's curl walk-through, then stops cleanly", { timeout: 180_000 }, async (t) => {
  // Inside the project, so the bundle finds node_modules; test-output/ is not in a fresh clone.
  mkdirSync(join(PROJECT_ROOT, 'test-output'), { recursive: true })
  const workDir = mkdtempSync(join(PROJECT_ROOT, 'test-output', 'start-and-book-'))
  t.after(() => rmSync(workDir, { recursive: true, force: true }))
  const bundle = join(workDir, 'server.js')
  await run(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outfile', relative(PROJECT_ROOT, bundle)], { cwd: PROJECT_ROOT })

  const service = await startServer({ DATABASE_URL: `sqlite:${join(workDir, 'tourdesk.db')}` }, startArguments(bundle))
  t.after(() => service.stop('SIGKILL'))
  await runReadmeWalkThrough(service.origin, Temporal.Now.instant())

  await service.stop('SIGTERM')
  assert.deepEqual([service.child.exitCode, service.child.signalCode], [0, null], `a clean stop:\n${service.output()}`)
})
