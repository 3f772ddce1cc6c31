import { startNodeProcess, type StartedProcess } from './node-process.ts'

/**
 * The service as `npm start` runs it (default log level included), minus rate limits, on
 * a free port. Its cold start ends with the first answer to GET {base}/tours.
 */
export function startService(databaseUrl: string, catalogPath: string, nodeArgs: string[] = []): Promise<StartedProcess> {
  return startNodeProcess({
    script: 'src/server.ts',
    nodeArgs,
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TOURDESK_CONFIG: catalogPath,
      TOURDESK_RATE_LIMITS: 'off',
      TOURDESK_HOLD_SECONDS: '',
      TOURDESK_MIGRATE: 'on',
      LOG_LEVEL: 'info',
    },
    firstAnswerPath: '/tours',
  })
}

export function startCeiling(): Promise<StartedProcess> {
  return startNodeProcess({ script: 'bench/ceiling-server.ts', env: {}, firstAnswerPath: '/' })
}
