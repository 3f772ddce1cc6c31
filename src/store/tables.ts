import type { GuestTables } from './tables/guest-tables.ts'
import type { OperatorTables } from './tables/operator-tables.ts'
import type { OutboxTables } from './tables/outbox-tables.ts'

/** Row shapes of every table. Instants are stored as fixed-width UTC text (see toStoredInstant). */
export interface Tables extends GuestTables, OperatorTables, OutboxTables {}
