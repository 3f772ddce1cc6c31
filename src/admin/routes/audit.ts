import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../../domain/instant-format.ts'
import { AuditList, AuditQuery } from '../../schemas/admin/audit.ts'
import { auditEntryView } from '../audit-view.ts'
import { decodeCursor, encodeCursor } from '../list-cursor.ts'

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A `from` or `to` bound as a stored instant: a date means its local midnight (the day after's, for an inclusive `to`). */
function boundOf(value: string | undefined, timeZone: string, endOfDay: boolean): string | undefined {
  if (value === undefined) return undefined
  if (!DATE.test(value)) return toStoredInstant(Temporal.Instant.from(value))
  const day = Temporal.PlainDate.from(value)
  return toStoredInstant((endOfDay ? day.add({ days: 1 }) : day).toZonedDateTime(timeZone).toInstant())
}

/** The audit log (docs/operator-api.md, "Audit, privacy and access"): every change made through the operator API or the CLI. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { audit } = app.tourdesk

  app.get('/audit', {
    schema: { querystring: AuditQuery, response: { 200: AuditList } },
    config: {
      access: 'bookings.read',
      summary: 'The audit log, newest first',
      description: 'Each entry: when, who (a staff account, an API key, the system, or the CLI as system "cli"), the action, its target, the changed fields before '
        + 'and after, and the id of the request that made it. The target carries its id and ref, the name people know it by (a booking\'s code, a '
        + 'departure\'s tour and start, a staff email, a key\'s name); `booking` (a code or an id) lists one booking\'s entries. Privacy requests name '
        + 'their address only by a keyed hash and carry the counts, never the data.',
    },
  }, async (request) => {
    const { timezone, ref } = request.catalog.instance
    const { from, to, actor, action, booking, cursor } = request.query
    const limit = request.query.limit ?? 50
    const before = cursor === undefined ? undefined : decodeCursor(cursor, 2)
    const rows = await audit.list(ref, {
      from: boundOf(from, timezone, false),
      to: boundOf(to, timezone, true),
      actor,
      action,
      booking,
      before: before && { at: before[0], id: before[1] },
      limit: limit + 1,
    })
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    return {
      entries: page.map((row) => auditEntryView(row, timezone)),
      next_cursor: rows.length > limit ? encodeCursor([last.at, last.id]) : null,
    }
  })
}
