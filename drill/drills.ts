import { clockJumpsDrill } from './clock-jumps.ts'
import { diskFullDrill } from './disk-full.ts'
import { killNodeDrill } from './kill-node.ts'
import { skippedOutcome, type DrillOutcome } from './outcome.ts'
import { postgresCutDrill } from './postgres-cut.ts'
import { racesDrill } from './races.ts'
import { slowClientsDrill } from './slow-clients.ts'
import { webhooksDrill, type WebhooksDrillOptions } from './webhooks.ts'

export interface DrillSettings {
  quick: boolean
  /** The run's PostgreSQL database, or null when PostgreSQL is unreachable. */
  postgresUrl: string | null
  postgresUnreachable: string | null
}

/** One drill on one database. */
export interface DrillRun {
  database: DrillOutcome['database']
  run(): Promise<DrillOutcome>
}

export interface Drill {
  /** For `--only`. */
  name: string
  /** The table's name for it, which may give the settings (rounds) it ran with. */
  title(settings: DrillSettings): string
  runs(settings: DrillSettings, title: string): DrillRun[]
}

function onSqlite(run: () => Promise<DrillOutcome>): DrillRun {
  return { database: 'SQLite', run }
}

/** On PostgreSQL when reachable, else a row that says why it was skipped. */
function onPostgres(settings: DrillSettings, title: string, run: (postgresUrl: string) => Promise<DrillOutcome>): DrillRun {
  const url = settings.postgresUrl
  return {
    database: 'PostgreSQL',
    run: url ? () => run(url) : async () => skippedOutcome(title, 'PostgreSQL', settings.postgresUnreachable ?? 'PostgreSQL is not reachable'),
  }
}

const killRounds = (s: DrillSettings) => s.quick ? 1 : 20
const slowPerKind = (s: DrillSettings) => s.quick ? 50 : 500
const killOptions = (s: DrillSettings, title: string) => ({ title, rounds: killRounds(s), holdsPerRound: 32 })
const raceRounds = (s: DrillSettings) => s.quick ? 1 : 10
const raceNodes = 3
const raceOptions = (s: DrillSettings, title: string) => ({ title, nodes: raceNodes, rounds: raceRounds(s), mixedRuns: s.quick ? 5 : 150 })
/**
 * The receiver accepts, refuses connections, hangs (each attempt then waits out the sender's
 * 15 s timeout) and answers 503 slowly while a node is killed; a quick run leaves out the
 * hang and the kill, which cost 15 and 30 seconds of waiting.
 */
const webhookOptions = (s: DrillSettings, title: string, postgresUrl: string | null): WebhooksDrillOptions => ({
  title,
  postgresUrl,
  nodes: postgresUrl && !s.quick ? 3 : 2,
  phases: s.quick ? { accept: 1000, refuse: 1500, hang: 0, 'slow-503': 1500 } : { accept: 4000, refuse: 8000, hang: 6000, 'slow-503': 8000 },
  slowAnswerMs: s.quick ? 300 : 1500,
  killNode: !s.quick,
  afterMs: s.quick ? 500 : 3000,
  drainTimeoutMs: 120_000,
  traffic: { workers: 2, paceMs: s.quick ? 50 : 100 },
})

export const DRILLS: Drill[] = [
  {
    name: 'kill',
    title: (s) => `SIGKILL under booking load (${killRounds(s)} round${killRounds(s) === 1 ? '' : 's'})`,
    runs: (s, title) => [
      onSqlite(() => killNodeDrill({ ...killOptions(s, title), postgresUrl: null })),
      onPostgres(s, title, (postgresUrl) => killNodeDrill({ ...killOptions(s, title), postgresUrl })),
    ],
  },
  {
    name: 'pg-cut',
    title: () => 'PostgreSQL cut by a TCP proxy',
    runs: (s, title) => [
      onPostgres(s, title, (postgresUrl) => postgresCutDrill({
        title, postgresUrl, holds: s.quick ? 100 : 500, warmMs: s.quick ? 200 : 1000, cutMs: s.quick ? 500 : 5000, afterMs: s.quick ? 300 : 1000,
      })),
    ],
  },
  {
    name: 'disk-full',
    title: () => 'SQLite disk full',
    runs: (s, title) => [onSqlite(() => diskFullDrill(title, s.quick ? 50 : 80))],
  },
  {
    name: 'slow-clients',
    title: (s) => `${slowPerKind(s) * 2} slow clients (slowloris) beside bookings`,
    runs: (s, title) => [onSqlite(() => slowClientsDrill({ title, perKind: slowPerKind(s), holds: s.quick ? 30 : 200, observeMs: s.quick ? 1000 : 60_000, cutExpected: !s.quick }))],
  },
  {
    name: 'races',
    title: (s) => `Races over ${raceNodes} nodes on one database (${raceRounds(s)} round${raceRounds(s) === 1 ? '' : 's'})`,
    runs: (s, title) => [
      onSqlite(() => racesDrill({ ...raceOptions(s, title), postgresUrl: null })),
      onPostgres(s, title, (postgresUrl) => racesDrill({ ...raceOptions(s, title), postgresUrl })),
    ],
  },
  {
    name: 'webhooks',
    title: (s) => `Webhook receiver down, slow and back${s.quick ? '' : ', a node killed'}`,
    runs: (s, title) => [
      onSqlite(() => webhooksDrill(webhookOptions(s, title, null))),
      onPostgres(s, title, (postgresUrl) => webhooksDrill(webhookOptions(s, title, postgresUrl))),
    ],
  },
  {
    name: 'clock',
    title: () => 'Clock jumps between hold and checkout',
    runs: (s, title) => [
      onSqlite(() => clockJumpsDrill(title, null)),
      onPostgres(s, title, (postgresUrl) => clockJumpsDrill(title, postgresUrl)),
    ],
  },
]
