/**
 * The ceiling: a bare Fastify server answering {"ok":true}, run as its own process like the
 * service, so every figure can be read as a share of what this machine's HTTP stack allows.
 */
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/', async () => ({ ok: true }))

const stop = async () => {
  await app.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())

await app.listen({ port: 0, host: '127.0.0.1' })
const { port } = app.server.address() as { port: number }
process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${port}` })}\n`)
