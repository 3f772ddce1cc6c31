import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { PROJECT_ROOT } from '../../src/project-root.ts'
import { SQLITE_BINDING } from '../../src/store/sqlite-binding.ts'
import { testDialect } from '../helpers/database.ts'

// better-sqlite3 12 aborts Node 24 when the garbage collector frees a prepared statement
// (src/store/sqlite-binding.ts). This runs a minute of statement churn under forced
// collections in a child process (only a child can be given --expose-gc) and asks that it
// ends cleanly, on whichever Node line runs the test: scripts/other-node-lines.sh runs it on
// Node 24 and 26 as well.
const SECONDS = 60

test('a minute of prepared statements created and collected under --expose-gc ends cleanly, with the binding for this Node line', {
  skip: testDialect !== 'sqlite' && 'SQLite only (runs in the SQLite pass of the test command)',
  timeout: (SECONDS + 60) * 1000,
}, async () => {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/store/statement-churn.ts', String(SECONDS)], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  const [code, signal] = await once(child, 'exit') as [number | null, NodeJS.Signals | null]
  assert.equal(signal, null, `the process was killed by ${signal}:\n${stderr}`)
  assert.equal(code, 0, `the process exited with ${code}:\n${stderr}`)
  assert.equal(stderr, '', 'nothing on stderr')

  const report = JSON.parse(stdout.trim()) as { binding: string, node: string, statements: number, collections: number }
  assert.equal(report.node, process.versions.node)
  const major = Number(process.versions.node.split('.')[0])
  assert.equal(report.binding, major >= 22 ? 'better-sqlite3-13' : 'better-sqlite3', 'release 13 from Node 22 on, 12 on Node 20')
  assert.equal(report.binding, SQLITE_BINDING)
  assert.ok(report.statements >= 10_000, `thousands of statements (${report.statements})`)
  assert.ok(report.collections >= 10, `many forced collections (${report.collections})`)
})
