import type { BookingStatus } from '../schemas/booking-status.ts'

/**
 * Booking statuses written into SQL as literals, not bound as parameters: only a literal lets
 * SQLite and PostgreSQL use the partial indexes over bookings in one status (src/store/migrations.ts).
 * The text is always a status of src/schemas/booking-status.ts, never input.
 */
export const statusLiteral = (status: BookingStatus): string => `'${status}'`

/** `('held', 'requested', …)`, for `status in …`. */
export const statusList = (statuses: readonly BookingStatus[]): string => `(${statuses.map(statusLiteral).join(', ')})`
