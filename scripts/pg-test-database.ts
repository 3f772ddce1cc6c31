/**
 * Makes and removes the throw-away PostgreSQL database of one test run, so runs never see
 * each other's data. `create` prints the new database's URL, or exits 2 when PostgreSQL
 * cannot be reached; `drop URL` removes it and the databases its test processes made beside it.
 */
import type pg from 'pg'
import { withPostgresClient } from './postgres-admin.ts'

const ADMIN_URL = process.env.TOURDESK_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test'

const withAdmin = <T>(work: (client: pg.Client) => Promise<T>) => withPostgresClient(ADMIN_URL, work)

async function create(): Promise<void> {
  const name = `tourdesk_test_${Date.now()}_${process.pid}`
  try {
    await withAdmin((client) => client.query(`create database ${name}`))
  } catch (err) {
    process.stderr.write(`PostgreSQL at ${ADMIN_URL} is not reachable: ${(err as Error).message}\n`)
    process.exit(2)
  }
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  process.stdout.write(`${url}\n`)
}

/** Drops the run's database and the databases its test processes made beside it (`<name>_p<pid>`, test/helpers/database.ts). */
async function drop(target: string): Promise<void> {
  const name = new URL(target).pathname.slice(1)
  if (!/^tourdesk_test_\d+_\d+$/.test(name)) throw new Error(`refusing to drop ${name}: not a test database`)
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname ~ $1`, [`^${name}_p\\d+$`])
    for (const { datname } of [...rows, { datname: name }]) await client.query(`drop database if exists "${datname}" with (force)`)
  })
}

const [command, argument] = process.argv.slice(2)
if (command === 'create') await create()
else if (command === 'drop' && argument) await drop(argument)
else {
  process.stderr.write('usage: pg-test-database.ts create | drop URL\n')
  process.exit(64)
}
