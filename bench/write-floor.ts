/**
 * `npx tsx bench/write-floor.ts [--seconds N] [--connections N]`: how much of a write cycle's
 * CPU on SQLite is the HTTP and the SQL it cannot do without, and how much is the service's own
 * work between them. For each write cycle of bench/scenarios.ts, measured in one run:
 *
 * - the service: req/s, share of the ceiling (measured first), CPU per request;
 * - the SQL alone: the statements of a second run of the cycle, recorded at better-sqlite3
 *   (bench/sql-recorder.cjs), replayed in order on a copy of the database taken where the
 *   recording starts, CPU per request of that run (background work such as the email outbox
 *   included, as it runs on the service's core);
 * - the HTTP alone: bench/http-floor-server.ts taking the same requests, from the same load
 *   generator, and answering the service's own answers, CPU per request.
 *
 * CPU is user + system time from /proc: the whole process's, and its main thread's, which runs
 * the JavaScript and so bounds throughput (the helper threads, fsync and the garbage collector's,
 * take the other core). The two floors' main-thread times bound what any service keeping these
 * statements and these answers could reach on one core.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../src/domain/instant-format.ts'
import { SQLite } from '../src/store/sqlite-binding.ts'
import { BENCH_TIME_ZONE, HOLD_TOUR, writeBenchCatalog } from './catalog.ts'
import { sqliteDatabase } from './databases.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import { measureLoadCpu, type LoadCpuFigures } from './load-cpu.ts'
import { ROOT, startNodeProcess } from './node-process.ts'
import { readMainThreadCpuMs } from './process-cpu.ts'
import { json, scenarios } from './scenarios.ts'
import { startCeiling, startService } from './service.ts'
import { FULL } from './settings.ts'

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: String(FULL.connections) } },
})
const load = { connections: Number(args.connections), durationSeconds: Number(args.seconds), warmupSeconds: 1 }
const today = todayIn(Temporal.Now.instant(), BENCH_TIME_ZONE)
const tomorrow = today.add({ days: 1 })
const workDir = mkdtempSync(join(os.tmpdir(), 'tourdesk-write-floor-'))
const catalogPath = writeBenchCatalog(workDir, FULL.growth.small.tours, today)

/** One answer of each kind the cycles get, from the service, for the HTTP floor to give. */
async function sampleAnswers(base: string): Promise<{ hold: unknown, release: unknown, checkout: unknown }> {
  const [start] = (await json(`${base}/availability?tour=${HOLD_TOUR}&date=${tomorrow}&days=2`)).slots
    .filter((slot: { status: string }) => slot.status !== 'closed' && slot.status !== 'sold_out').map((slot: { start: string }) => slot.start)
  const holdWith = async () => {
    const session = await json(`${base}/session`, { method: 'POST' })
    const headers = { 'x-session': session.session, 'x-csrf-token': session.csrf_token }
    const hold = await json(`${base}/booking`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ tour_id: HOLD_TOUR, start, party: 1 }),
    })
    return { session, headers, hold }
  }
  const released = await holdWith()
  const release = await json(`${base}/booking`, { method: 'DELETE', headers: released.headers })
  const checkedOut = await holdWith()
  const checkout = await json(`${base}/checkout`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: checkedOut.session.session, name: 'Bench Guest', email: 'bench@example.com', phone: '+351912345678' }),
  })
  return { hold: released.hold, release, checkout }
}

/** Main-thread CPU per request of the recorded statements replayed in order on the snapshot, alone in this process. */
function replay(snapshotPath: string, recordingPath: string, requests: number): { statements: number, cpuUs: number } {
  const lines = readFileSync(recordingPath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as [string, unknown[], boolean])
  const database = new SQLite(snapshotPath)
  // As src/store/sqlite.ts opens it.
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  const prepared = new Map<string, ReturnType<typeof database.prepare<unknown[]>>>()
  const started = readMainThreadCpuMs(process.pid)!
  for (const [text, params, reads] of lines) {
    let statement = prepared.get(text)
    if (!statement) {
      statement = database.prepare(text)
      prepared.set(text, statement)
    }
    if (reads) statement.all(...params)
    else statement.run(...params)
  }
  const usedMs = readMainThreadCpuMs(process.pid)! - started
  database.close()
  return { statements: lines.length, cpuUs: (usedMs * 1000) / requests }
}

// The CPU readings and the recorder's signals are Linux's.
if (readMainThreadCpuMs(process.pid) === null) throw new Error('bench/write-floor.ts reads CPU time from /proc, which this system does not have')
const ceiling = await startCeiling(workDir)
let ceilingRps: number
try {
  ceilingRps = (await measureLoad({ url: `${ceiling.baseUrl}/`, ...load })).requestsPerSecond
} finally {
  await ceiling.stop()
}
const share = (rps: number) => (rps / ceilingRps).toFixed(3)
const µs = (value: number | null) => `${Math.round(value!)} µs`
process.stdout.write(`ceiling: ${Math.round(ceilingRps)} req/s; CPU is user + system time per request served\n`)

for (const scenario of scenarios(tomorrow).filter((s) => s.kind === 'write')) {
  const database = sqliteDatabase(workDir, scenario.name)
  const snapshotPath = join(workDir, `${scenario.name}-snapshot.db`)
  const recordingPath = join(workDir, `${scenario.name}-statements.jsonl`)
  const answersPath = join(workDir, `${scenario.name}-answers.json`)
  const service = await startService({
    databaseUrl: database.url, catalogPath, logDir: workDir,
    nodeArgs: ['-r', join(ROOT, 'bench/sql-recorder.cjs')],
    env: { FLOOR_SNAPSHOT: snapshotPath, FLOOR_RECORDING: recordingPath },
  })
  let measured: LoadCpuFigures
  let recorded: LoadFigures
  let traffic: Awaited<ReturnType<typeof scenario.traffic>>
  try {
    measured = await measureLoadCpu(service.pid, { ...await scenario.traffic(service.baseUrl, load.connections), ...load })
    writeFileSync(answersPath, JSON.stringify(await sampleAnswers(service.baseUrl)))
    traffic = await scenario.traffic(service.baseUrl, load.connections)
    process.kill(service.pid, 'SIGUSR1')
    recorded = await measureLoad({ ...traffic, ...load, warmupSeconds: 0 })
    process.kill(service.pid, 'SIGUSR2')
  } finally {
    await service.stop()
  }
  const sql = replay(snapshotPath, recordingPath, recorded.requests)
  await database.drop()
  rmSync(snapshotPath, { force: true })

  // The same requests (paths, headers, bodies) as the service took, sent to the HTTP floor.
  const floor = await startNodeProcess({ script: 'bench/http-floor-server.ts', env: { FLOOR_ANSWERS: answersPath }, logPath: join(workDir, 'http-floor.log'), firstAnswerPath: '/ping' })
  let http: LoadCpuFigures
  try {
    http = await measureLoadCpu(floor.pid, { ...traffic, url: floor.baseUrl, ...load })
  } finally {
    await floor.stop()
  }
  const bound = 1e6 / (http.mainThreadUs! + sql.cpuUs)
  process.stdout.write(`${scenario.name}:\n`
    + `  service: ${Math.round(measured.requestsPerSecond)} req/s (${share(measured.requestsPerSecond)}); CPU per request ${µs(measured.cpuUs)}, main thread ${µs(measured.mainThreadUs)}\n`
    + `  SQL alone: main thread ${µs(sql.cpuUs)} (${sql.statements} statements of ${recorded.requests} requests, replayed)\n`
    + `  HTTP alone: ${Math.round(http.requestsPerSecond)} req/s (${share(http.requestsPerSecond)}); CPU per request ${µs(http.cpuUs)}, main thread ${µs(http.mainThreadUs)}\n`
    + `  the service's own work on its main thread: ${µs(measured.mainThreadUs! - sql.cpuUs - http.mainThreadUs!)}\n`
    + `  HTTP and SQL alone on one core: at most ${Math.round(bound)} req/s (${share(bound)})\n`)
}
rmSync(workDir, { recursive: true, force: true })
