import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { openStore } from '../../src/store/store.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'

/** Tables that belong to no instance: the server's own secret and Kysely's migration bookkeeping. */
const INSTANCE_LESS = new Set(['server_secrets', 'kysely_migration', 'kysely_migration_lock'])
/** The one key that is global by nature: a URL's prefix names one instance among all of them (the routing table, not tenant data). */
const ROUTING_KEYS = new Set(['catalog_instances (prefix)'])

interface Key {
  table: string
  name: string
  columns: string[]
}

async function keysOf(store: Awaited<ReturnType<typeof openStore>>): Promise<{ tables: string[], keys: Key[] }> {
  if (store.dialect === 'sqlite') {
    const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(store.db)).rows.map((r) => r.name)
    const keys: Key[] = []
    for (const table of tables) {
      const indexes = (await sql<{ name: string, unique: number, origin: string }>`select name, "unique", origin from pragma_index_list(${table})`.execute(store.db)).rows
      for (const index of indexes.filter((i) => i.unique === 1)) {
        const columns = (await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(store.db)).rows.map((c) => c.name)
        keys.push({ table, name: index.name, columns })
      }
      // A rowid table's single-column integer primary key has no index of its own.
      const pk = (await sql<{ name: string, pk: number }>`select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(store.db)).rows
      if (pk.length > 0 && !indexes.some((i) => i.origin === 'pk')) keys.push({ table, name: `${table} primary key`, columns: pk.map((c) => c.name) })
    }
    return { tables, keys }
  }
  const tables = (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(store.db)).rows.map((r) => r.name)
  const keys = (await sql<{ table: string, name: string, columns: string[] }>`
    select t.relname as table, i.relname as name, array_agg(a.attname::text order by k.ordinality) as columns
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()
    cross join lateral unnest(x.indkey) with ordinality as k(attnum, ordinality)
    join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
    where x.indisunique
    group by t.relname, i.relname`.execute(store.db)).rows
  return { tables, keys }
}

test(`every primary key and unique index starts with the instance id (${testDialect})`, async (t) => {
  const database = await freshDatabase()
  const store = await openStore(database.target)
  t.after(async () => {
    await store.close()
    await database.drop()
  })
  const { tables, keys } = await keysOf(store)
  const tenantTables = tables.filter((name) => !INSTANCE_LESS.has(name))
  assert.ok(tenantTables.includes('bookings') && tenantTables.includes('departures'), `tables found: ${tables.join(', ')}`)
  for (const table of tenantTables) {
    const own = keys.filter((k) => k.table === table)
    assert.ok(own.length > 0, `${table} has a primary key`)
    for (const key of own) {
      if (ROUTING_KEYS.has(`${table} (${key.columns.join(', ')})`)) continue
      assert.equal(key.columns[0], 'instance_id', `${key.name} on ${table} is (${key.columns.join(', ')})`)
    }
  }
})
