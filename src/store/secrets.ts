import { randomBytes } from 'node:crypto'
import type { Db } from './database.ts'

/**
 * The server secret that signs CSRF tokens. Generated once and kept in the database, so a
 * restart or another node sharing the database verifies the same tokens.
 */
export async function loadServerSecret(db: Db, name: string): Promise<string> {
  await db.insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return row.value
}
