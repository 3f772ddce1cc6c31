import pg from 'pg'

/**
 * Runs `work` on one short-lived connection to `url`, for the statements the test command,
 * the tests and the bench run outside the service (create or drop a database or schema).
 */
export async function withPostgresClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
