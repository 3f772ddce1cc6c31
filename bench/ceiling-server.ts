/**
 * The ceiling: a bare Fastify server answering {"ok":true}, run as its own process like the
 * service, so every figure can be read as a share of what this machine's HTTP stack allows.
 */
import Fastify from 'fastify'
import { serveBare } from './bare-server.ts'

const app = Fastify({ logger: false })
app.get('/', async () => ({ ok: true }))
await serveBare(app)
