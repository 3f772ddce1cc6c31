import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/store.ts'

// SQLite's change token is read once per turn of the event loop (src/store/sqlite.ts,
// turnToken); these check what that must not lose. PostgreSQL's token comes from
// notifications instead (src/store/change-token.ts) and is covered by the multi-node tests.
const dir = mkdtempSync(join(tmpdir(), 'tourdesk-change-token-'))
const target = { dialect: 'sqlite' as const, path: join(dir, 'token.sqlite') }
let store: Store
let otherProcess: Store

// In a describe block, so that its hooks stay with its tests when scripts/test-groups.mjs runs
// this file in one process with others.
describe('SQLite\'s change token', () => {
  before(async () => {
    store = await openStore(target)
    otherProcess = await openStore(target, { migrate: false })
    await sql`create table token_probe (n integer)`.execute(store.db)
  })
  after(async () => {
    await otherProcess.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a write of this process moves the token within the same turn of the event loop', async () => {
    let turned = false
    setImmediate(() => { turned = true })
    const first = store.changeToken()
    assert.equal(store.changeToken(), first, 'read twice, unchanged')
    await sql`insert into token_probe (n) values (1)`.execute(store.db)
    assert.equal(turned, false, 'still the same turn, where the token was kept')
    assert.notEqual(store.changeToken(), first, 'the write forgot the kept token')
  })

  test('another connection\'s commit is seen by the next turn', async () => {
    const first = store.changeToken()
    await sql`insert into token_probe (n) values (2)`.execute(otherProcess.db)
    await new Promise((resolve) => setImmediate(resolve))
    assert.notEqual(store.changeToken(), first)
  })
})
