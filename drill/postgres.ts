import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SCRIPT = ['--import', 'tsx', 'scripts/pg-test-database.ts']

/** The throw-away PostgreSQL database of one drill run (each drill makes its own schema in it), or why there is none. */
export type DrillPostgres = { url: string, drop(): Promise<void> } | { unreachable: string }

/**
 * Made and dropped by scripts/pg-test-database.ts, the same way the test command does, so
 * the drills need no PostgreSQL settings of their own (TOURDESK_TEST_PG_URL picks the server).
 */
export async function createDrillPostgres(): Promise<DrillPostgres> {
  try {
    const { stdout } = await run(process.execPath, [...SCRIPT, 'create'], { cwd: ROOT })
    const url = stdout.trim()
    return { url, drop: async () => { await run(process.execPath, [...SCRIPT, 'drop', url], { cwd: ROOT }) } }
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    return { unreachable: stderr || (err as Error).message }
  }
}
