import type { DatabaseTarget } from '../config/env.ts'
import { auditRepository } from './audit.ts'
import { bookingRepository } from './bookings.ts'
import { formRepository } from './forms.ts'
import { openDatabase, type Database } from './database.ts'
import { idempotencyRepository } from './idempotency.ts'
import { migrateToLatest } from './migrations.ts'
import { promoRedemptionRepository } from './promo-redemptions.ts'
import { sessionRepository } from './sessions.ts'
import { staffRepository } from './staff.ts'

/** The database and one repository per aggregate; created once per process. */
export interface Store extends Database {
  sessions: ReturnType<typeof sessionRepository>
  bookings: ReturnType<typeof bookingRepository>
  idempotency: ReturnType<typeof idempotencyRepository>
  promoRedemptions: ReturnType<typeof promoRedemptionRepository>
  forms: ReturnType<typeof formRepository>
  staff: ReturnType<typeof staffRepository>
  audit: ReturnType<typeof auditRepository>
}

export interface StoreOptions {
  /** Apply pending migrations before use (default true); safe when several nodes start at once. */
  migrate?: boolean
}

export async function openStore(target: DatabaseTarget, options: StoreOptions = {}): Promise<Store> {
  const database = openDatabase(target)
  try {
    if (options.migrate ?? true) await migrateToLatest(database.db, database.dialect)
  } catch (err) {
    await database.close()
    throw err
  }
  return {
    ...database,
    sessions: sessionRepository(database),
    bookings: bookingRepository(database),
    idempotency: idempotencyRepository(database.db),
    promoRedemptions: promoRedemptionRepository(database.db),
    forms: formRepository(database),
    staff: staffRepository(database),
    audit: auditRepository(database),
  }
}
