import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, startNodeProcess, type StartedProcess } from './node-process.ts'

let started = 0
const logPath = (logDir: string, name: string) => join(logDir, `${name}-${++started}.log`)

export interface ServiceOptions {
  databaseUrl: string
  catalogPath: string
  /** Where the service's log goes (one file per start). */
  logDir: string
  nodeArgs?: string[]
  /** More settings, e.g. TOURDESK_REUSE_ANSWERS=off. */
  env?: Record<string, string>
  /** Another source tree, already built (source-trees.ts), to run instead of this checkout. */
  root?: string
}

let built = false

/** `npm run build`, once per bench run, so the service measured is the current source. */
function buildService(): void {
  if (built) return
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  built = true
}

/** `npm start`'s node flags and script, read from package.json so that the bench runs exactly that. */
function npmStartCommand(root: string): { nodeArgs: string[], script: string } {
  const start: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start
  const [program, ...args] = start.split(/\s+/)
  if (program !== 'node' || args.length === 0) throw new Error(`npm start runs "${start}"; the bench expects "node [flags] script"`)
  return { nodeArgs: args.slice(0, -1), script: args[args.length - 1] }
}

/**
 * The service as `npm start` runs it (the bundle in dist/, default log level included),
 * minus rate limits, on a free port. Its cold start ends with the first answer to GET {base}/tours.
 */
export function startService(options: ServiceOptions): Promise<StartedProcess> {
  if (options.root === undefined) buildService()
  const { nodeArgs, script } = npmStartCommand(options.root ?? ROOT)
  return startNodeProcess({
    cwd: options.root,
    script,
    nodeArgs: [...nodeArgs, ...options.nodeArgs ?? []],
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      TOURDESK_CONFIG: options.catalogPath,
      TOURDESK_RATE_LIMITS: 'off',
      TOURDESK_HOLD_SECONDS: '',
      TOURDESK_MIGRATE: 'on',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    logPath: logPath(options.logDir, 'service'),
    firstAnswerPath: '/tours',
  })
}

export function startCeiling(logDir: string): Promise<StartedProcess> {
  return startNodeProcess({ script: 'bench/ceiling-server.ts', env: {}, logPath: logPath(logDir, 'ceiling'), firstAnswerPath: '/' })
}
