import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { test } from 'node:test'
import { measureLoadCpu } from '../../bench/load-cpu.ts'

// compare-cpu, profile and write-floor divide a process's CPU time by the requests measured; the
// warm-up's CPU once came into the division too, and a 1 s warm-up before 4 s of load made
// every figure a quarter too high (bench/results/2026-11-27-night-write-trims.md).
test('CPU per request counts the measured requests\' CPU only, however long the warm-up', { timeout: 60_000 }, async (t) => {
  const server = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => s.end('ok'))
    .listen(0, '127.0.0.1', function () { console.log(this.address().port) })`], { stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => server.kill())
  const [port] = (await once(server.stdout!, 'data')).map((chunk: Buffer) => chunk.toString().trim())
  const spec = { url: `http://127.0.0.1:${port}/`, connections: 2, durationSeconds: 1 }

  const unwarmed = await measureLoadCpu(server.pid!, { ...spec, warmupSeconds: 0 })
  const warmed = await measureLoadCpu(server.pid!, { ...spec, warmupSeconds: 3 })
  assert.ok(unwarmed.cpuUs !== null && warmed.cpuUs !== null && warmed.mainThreadUs !== null, 'this test needs /proc')
  // Counted against the measured second's requests, three seconds of warm-up would about quadruple it.
  assert.ok(warmed.cpuUs < 2 * unwarmed.cpuUs, `${warmed.cpuUs.toFixed(0)} µs after a warm-up, ${unwarmed.cpuUs.toFixed(0)} µs without`)
  assert.ok(warmed.mainThreadUs > 0 && warmed.mainThreadUs <= warmed.cpuUs, `main thread ${warmed.mainThreadUs.toFixed(0)} µs of ${warmed.cpuUs.toFixed(0)} µs`)
})
