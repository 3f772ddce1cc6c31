/**
 * Issue 15: a catalog change reaches guests on every node within 2 seconds, with no restart.
 * Two server processes (src/server.ts) on one database, as behind a load balancer: on
 * SQLite two processes on one file (they learn of each other's commits by data_version), on
 * PostgreSQL (TEST_DATABASE_URL) two nodes told by LISTEN. Each delay is measured by asking
 * again as soon as the last answer is in, and printed.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { test, type TestContext } from 'node:test'
import { bookingPagePath } from '../../src/domain/links.ts'
import { demoCatalog } from '../helpers/build.ts'
import { runCli } from '../helpers/cli-process.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { OperatorClient, STAFF_PASSWORD } from '../helpers/operator.ts'
import { delayUntil, PROPAGATION_LIMIT_MS } from '../helpers/propagation.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

const NODES = 2

/** `NODES` server processes on one fresh database; the first seeds it with the demo, the others start together. */
async function cluster(t: TestContext) {
  const db = await freshDatabase()
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-nodes-'))
  const nodes: ServerProcess[] = []
  t.after(async () => {
    await Promise.all(nodes.map((node) => node.stop()))
    await db.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  const env = { DATABASE_URL: db.url }
  nodes.push(await startServer(env))
  nodes.push(...await Promise.all(Array.from({ length: NODES - 1 }, () => startServer(env))))
  return { nodes, dir, cli: (args: string[], stdin?: string) => runCli(args, { env, stdin }) }
}

async function tourPrice(node: ServerProcess, prefix: string, tourId: string): Promise<number | null> {
  const res = await fetch(`${node.origin}/api/${prefix}/tours/${tourId}`)
  if (res.status !== 200) return null
  return ((await res.json()) as { price: { amount: number } }).price.amount
}

test(`a price or units changed through one node's operator API is served by the other node within 2 s (${NODES} processes on ${testDialect})`, async (t) => {
  const { nodes: [a, b], cli } = await cluster(t)
  const added = await cli(['staff', 'add', '--instance', 'lisbon', '--email', 'maria@example.pt', '--name', 'Maria Costa', '--role', 'manager', '--password-stdin'], `${STAFF_PASSWORD}\n`)
  assert.equal(added.code, 0, added.stderr)
  const signIn = await new OperatorClient(a.origin, 'lisbon').post('/session', { email: 'maria@example.pt', password: STAFF_PASSWORD })
  assert.equal(signIn.status, 200, signIn.text)
  const manager = new OperatorClient(a.origin, 'lisbon', { cookie: signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), csrf: signIn.body.csrf_token })

  for (const [round, price] of [2100, 2300, 2500].entries()) {
    assert.notEqual(await tourPrice(b, 'lisbon', 'alfama-walk'), price)
    const edited = await manager.patch('/tours/alfama-walk', { price })
    const since = performance.now()
    assert.equal(edited.status, 200, edited.text)
    assert.equal(await tourPrice(a, 'lisbon', 'alfama-walk'), price, 'the node that made the change serves it at once')
    const delay = await delayUntil(async () => await tourPrice(b, 'lisbon', 'alfama-walk') === price, since)
    t.diagnostic(`round ${round + 1}: the other node served the new price ${delay.toFixed(0)} ms after the edit was answered`)
    assert.ok(delay <= PROPAGATION_LIMIT_MS, `${delay.toFixed(0)} ms`)
  }

  // Units are part of the tour's row (catalog_tours.units), so they follow its version as a price does.
  // The first keeps the id "person", which the demo's translations of the walk name.
  const units = [{ id: 'person', type: 'adult', name: 'Adult', price: 2500 }, { id: 'child', type: 'child', name: 'Child', price: 1200, accompanied_by: ['person'] }]
  for (const [round, edit] of [{ units }, { units: [units[0], { ...units[1], price: 1300 }] }, { units: null }].entries()) {
    const expected = edit.units === null ? 'person:2500' : edit.units.map((unit) => `${unit.id}:${unit.price}`).join(',')
    assert.notEqual(await tourUnits(b, 'lisbon', 'alfama-walk'), expected)
    const edited = await manager.patch('/tours/alfama-walk', edit)
    const since = performance.now()
    assert.equal(edited.status, 200, edited.text)
    assert.equal(await tourUnits(a, 'lisbon', 'alfama-walk'), expected, 'the node that made the change serves it at once')
    const delay = await delayUntil(async () => await tourUnits(b, 'lisbon', 'alfama-walk') === expected, since)
    t.diagnostic(`units round ${round + 1}: the other node served ${expected} ${delay.toFixed(0)} ms after the edit was answered`)
    assert.ok(delay <= PROPAGATION_LIMIT_MS, `${delay.toFixed(0)} ms`)
  }
})

/** A tour's units as a node's guest API lists them: "person:2500,child:1200". */
async function tourUnits(node: ServerProcess, prefix: string, tourId: string): Promise<string | null> {
  const res = await fetch(`${node.origin}/api/${prefix}/tours/${tourId}`)
  if (res.status !== 200) return null
  return ((await res.json()) as { units: { id: string, price: { amount: number } }[] }).units.map((unit) => `${unit.id}:${unit.price.amount}`).join(',')
}

test(`a new instance imported while ${NODES} nodes run on ${testDialect} is served by every node within 2 s`, async (t) => {
  const { nodes, dir, cli } = await cluster(t)
  const [lisbon] = demoCatalog().instances
  const porto = { ...lisbon, ref: 'pt7q2w9z', prefix: 'porto', name: 'Douro & Porto Walks' }
  const path = join(dir, 'porto.json')
  writeFileSync(path, JSON.stringify({ instances: [porto] }))
  for (const node of nodes) assert.equal((await fetch(`${node.origin}/api/porto/tours`)).status, 404)

  const imported = await cli(['catalog', 'import', path, '--format', 'json'])
  const since = performance.now()
  assert.equal(imported.code, 0, imported.stderr)
  assert.equal(JSON.parse(imported.stdout)[0].changes[0].action, 'instance.created')
  const delays = await Promise.all(nodes.map((node) => delayUntil(async () => (await fetch(`${node.origin}/api/porto/tours`)).status === 200, since)))
  t.diagnostic(`the new instance was served ${delays.map((d) => `${d.toFixed(0)} ms`).join(' and ')} after the import exited`)
  for (const delay of delays) assert.ok(delay <= PROPAGATION_LIMIT_MS, `${delay.toFixed(0)} ms`)

  for (const node of nodes) {
    const res = await fetch(`${node.origin}/api/porto/tours`)
    const body = await res.json() as { tours: { id: string }[] }
    assert.deepEqual(body.tours.map((tour) => tour.id), lisbon.tours.map((tour: { id: string }) => tour.id))
    assert.equal((await fetch(`${node.origin}${bookingPagePath('porto')}`)).status, 200, 'and its booking page')
  }
})
