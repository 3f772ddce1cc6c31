import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'

const LISBON = 'lx4t7k2m'

test('keepUntil lengthens a session inside a write plan and never shortens it', async (t) => {
  const service = await build(t)
  const { store } = service.context
  await store.sessions.create({ instance_id: LISBON, id: 'abcdefghijkl', created_at: '2026-06-01T08:00:00.000Z', expires_at: '2026-06-02T08:00:00.000Z' })
  const expiry = async () => (await store.db.selectFrom('sessions').select('expires_at').executeTakeFirstOrThrow()).expires_at

  await store.write(function* () { yield* store.sessions.keepUntil(LISBON, 'abcdefghijkl', '2026-07-01T08:00:00.000Z') })
  assert.equal(await expiry(), '2026-07-01T08:00:00.000Z')
  await store.write(function* () { yield* store.sessions.keepUntil(LISBON, 'abcdefghijkl', '2026-06-20T08:00:00.000Z') })
  assert.equal(await expiry(), '2026-07-01T08:00:00.000Z', 'an earlier time (a clock set back) changes nothing')
  await store.write(function* () { yield* store.sessions.keepUntil('ny8h3p5r', 'abcdefghijkl', '2026-08-01T08:00:00.000Z') })
  assert.equal(await expiry(), '2026-07-01T08:00:00.000Z', "another instance's session of the same id is another session")
})
