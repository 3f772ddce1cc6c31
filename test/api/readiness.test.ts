import assert from 'node:assert/strict'
import { statfsSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { sql } from 'kysely'
import { mountSmallDisk } from '../../drill/tmpfs.ts'
import { SQLITE_ROOM_BYTES } from '../../src/http/readiness.ts'
import { build, startService } from '../helpers/build.ts'

// /readyz must tell a load balancer when the node cannot take writes, not only when the
// database is unreachable. A really full disk needs a tmpfs, so root: the free-space test
// below is skipped without it, and `npm run drill` (drill/disk-full.ts) checks /readyz while
// holds are refused on one. SQLite's max_page_count makes a SQLITE_FULL without root: the
// database may not grow, so a write that needs a page fails, whatever the disk has free.
const SQLITE_MAX_PAGES = 1073741823
const MIB = 1024 * 1024

async function readyz(origin: string) {
  const res = await fetch(`${origin}/readyz`)
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) }
}

test('/readyz is 200 ready while the database answers and nothing has been refused', async (t) => {
  const service = await build(t)
  const res = await readyz(service.origin)
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(res.body, { status: 'ready' })
})

test('/readyz turns 503 unavailable once the database refuses a write (SQLITE_FULL), and 200 again once it takes one', async (t) => {
  const service = await startService({ postgresUrl: null })
  t.after(service.close)
  const client = service.client()
  const db = service.context.store.db
  const { rows: [{ page_count: pages }] } = await sql<{ page_count: number }>`pragma page_count`.execute(db)
  await sql.raw(`pragma max_page_count = ${pages}`).execute(db)

  // Sessions until the database has no room for another: the answer is 503, never a 500.
  let refused = null
  for (let i = 0; i < 2000 && refused === null; i++) {
    const res = await client.post('/session')
    if (res.status !== 200) refused = res
  }
  assert.ok(refused, 'the database filled up')
  assert.equal(refused.status, 503, refused.text)
  assert.equal(refused.body.code, 'unavailable')

  const full = await readyz(service.origin)
  assert.equal(full.status, 503, full.text)
  assert.equal(full.headers.get('content-type'), 'application/problem+json; charset=utf-8')
  assert.equal(full.body.code, 'unavailable')
  assert.equal(full.headers.get('retry-after'), '1')
  assert.equal((await fetch(`${service.origin}/healthz`)).status, 200, 'the process itself is fine')
  assert.equal((await readyz(service.origin)).status, 503, 'still refused: one probe per check, and it keeps failing')

  await sql.raw(`pragma max_page_count = ${SQLITE_MAX_PAGES}`).execute(db)
  const again = await readyz(service.origin)
  assert.equal(again.status, 200, again.text)
  assert.equal((await client.post('/session')).status, 200)
  assert.equal((await readyz(service.origin)).status, 200)
})

test('on SQLite, /readyz is 503 while the disk holding the database has less room than a full WAL needs, and 200 once it has', async (t) => {
  const disk = await mountSmallDisk(SQLITE_ROOM_BYTES + 4 * MIB)
  if ('unavailable' in disk) {
    t.skip(`needs a tmpfs (root): ${disk.unavailable}`)
    return
  }
  // freshDatabase makes the SQLite file under the temp folder: here, on the small disk.
  const tmpdir = process.env.TMPDIR
  process.env.TMPDIR = disk.dir
  const service = await startService({ postgresUrl: null }).catch(async (err) => {
    await disk.unmount()
    throw err
  }).finally(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = tmpdir
  })
  // One hook, in this order: the disk cannot be unmounted while the database is open on it.
  t.after(async () => {
    try {
      await service.close()
    } finally {
      await disk.unmount()
    }
  })
  assert.equal((await readyz(service.origin)).status, 200)

  const { bavail, bsize } = statfsSync(disk.dir)
  const filler = join(disk.dir, 'filler')
  writeFileSync(filler, Buffer.alloc(bavail * bsize - 2 * MIB))
  const full = await readyz(service.origin)
  assert.equal(full.status, 503, full.text)
  assert.equal(full.body.code, 'unavailable')
  assert.equal((await service.client().post('/session')).status, 200, 'writes that still fit are still served: readiness only steers new traffic away')

  unlinkSync(filler)
  assert.equal((await readyz(service.origin)).status, 200)
})
