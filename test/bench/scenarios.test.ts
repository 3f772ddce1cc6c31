import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client, Request } from 'autocannon'
import { Temporal } from 'temporal-polyfill'
import { BENCH_PREFIX, benchCatalog } from '../../bench/catalog.ts'
import { scenarios } from '../../bench/scenarios.ts'
import { build, DEFAULT_NOW } from '../helpers/build.ts'

/** The session each connection of a write cycle sends, as autocannon's setupClient gives it its requests. */
function sessionsOfConnections(setupClient: (client: Client) => void, connections: number): string[] {
  const sessions: string[] = []
  for (let i = 0; i < connections; i++) {
    setupClient({ setRequests: (requests: Request[]) => sessions.push(String(requests[0].headers!['x-session'])) } as unknown as Client)
  }
  return sessions
}

// A warm-up's last DELETE can reach the service after the measured run's first hold of the same
// session and release it; the measured run's DELETE then answered 404 (bench/scenarios.ts).
test('each write cycle gives the warm-up and the measured run sessions of their own', async (t) => {
  const today = Temporal.Instant.from(DEFAULT_NOW).toZonedDateTimeISO('Europe/Lisbon').toPlainDate()
  const service = await build(t, { catalog: benchCatalog(3, today) })
  const base = `${service.origin}/api/${BENCH_PREFIX}`
  for (const scenario of scenarios(today.add({ days: 1 })).filter((s) => s.kind === 'write')) {
    const connections = 3
    const traffic = await scenario.traffic(base, connections)
    const warmUp = sessionsOfConnections(traffic.setupClient!, connections)
    const measured = sessionsOfConnections(traffic.setupClient!, connections)
    assert.equal(new Set(warmUp).size, connections, `${scenario.name}: one session per warm-up connection`)
    assert.equal(new Set(measured).size, connections, `${scenario.name}: one session per measured connection`)
    assert.deepEqual(warmUp.filter((session) => measured.includes(session)), [], `${scenario.name}: no session in both`)
  }
})
