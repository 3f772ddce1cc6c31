import type { FastifyInstance } from 'fastify'

/**
 * Runs a bench's own bare server (bench/ceiling-server.ts, bench/http-floor-server.ts) as
 * bench/node-process.ts expects of a process: it listens on a free port of 127.0.0.1, prints
 * its base URL (`path` under the origin), and closes on SIGTERM or SIGINT.
 */
export async function serveBare(app: FastifyInstance, path = ''): Promise<void> {
  const stop = async () => {
    await app.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${port}${path}` })}\n`)
}
