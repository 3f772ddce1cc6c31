/**
 * The write cycles' HTTP alone, for bench/write-floor.ts: a bare Fastify server (as
 * bench/ceiling-server.ts) that takes the service's requests (POST and DELETE /booking, POST
 * /checkout, their bodies parsed) and answers each with an answer the service gave to it
 * (FLOOR_ANSWERS, a JSON file of three bodies), serialized again, with nothing in between.
 */
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'
import { serveBare } from './bare-server.ts'

const answers: { hold: unknown, release: unknown, checkout: unknown } = JSON.parse(readFileSync(process.env.FLOOR_ANSWERS!, 'utf8'))
const app = Fastify({ logger: false })
app.get('/api/bench/ping', async () => ({ ok: true }))
app.post('/api/bench/booking', async () => answers.hold)
app.delete('/api/bench/booking', async () => answers.release)
app.post('/api/bench/checkout', async () => answers.checkout)

await serveBare(app, '/api/bench')
