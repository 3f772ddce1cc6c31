import { InvalidArgumentError, Option } from 'commander'
import { Temporal } from 'temporal-polyfill'
import { Value } from 'typebox/value'
import { ROLES } from '../domain/roles.ts'
import { CliFailure } from './failure.ts'
import { Email } from '../schemas/admin/staff.ts'

/** Options several commands share; a value of the wrong shape is a usage error (exit 2), like an unknown option. */
export const instanceOption = () => new Option('--instance <prefix>', 'the instance, by its prefix in the catalog (e.g. lisbon)').makeOptionMandatory()

export const roleOption = () => new Option('--role <role>', 'what the account or key may do (docs/operator-api.md, "Roles")').choices(ROLES).makeOptionMandatory()

export const emailOption = () => new Option('--email <email>', 'email address').makeOptionMandatory().argParser((value) => {
  if (!Value.Check(Email, value)) throw new InvalidArgumentError('not an email address')
  return value
})

export const nameOption = (description: string) => new Option('--name <name>', description).makeOptionMandatory().argParser((value) => {
  if (value.trim() === '' || value.length > 200) throw new InvalidArgumentError('must be 1 to 200 characters, not only spaces')
  return value
})

export function parseDate(value: string): string {
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Temporal.PlainDate.from(value, { overflow: 'reject' }).toString()
  } catch {
    // Falls through to the refusal: 2026-02-30 has the shape of a date but is none.
  }
  throw new InvalidArgumentError('not a date (YYYY-MM-DD)')
}

/** A start as given: an instant with its offset, or a wall-clock time to read in the instance's zone (known only once the instance is). */
export type GivenStart = { instant: string } | { local: string }

/** `2026-11-27 20:30` (or with a T, or seconds) in the instance's zone, or RFC 3339 with an offset. */
export function parseStart(value: string): GivenStart {
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(value)) {
    try {
      return { local: Temporal.PlainDateTime.from(value.replace(' ', 'T'), { overflow: 'reject' }).toString() }
    } catch {
      throw new InvalidArgumentError('not a date and time (YYYY-MM-DD HH:MM)')
    }
  }
  try {
    return { instant: Temporal.Instant.from(value).toString() }
  } catch {
    throw new InvalidArgumentError('not a local date and time (2026-06-02 20:00) or an RFC 3339 time with an offset (2026-06-02T20:00:00+01:00)')
  }
}

/** The instant a given start names; a wall-clock time the zone skips or repeats (a DST change) is refused rather than guessed. */
export function startInZone(start: GivenStart, timeZone: string): Temporal.Instant {
  if ('instant' in start) return Temporal.Instant.from(start.instant)
  try {
    return Temporal.PlainDateTime.from(start.local).toZonedDateTime(timeZone, { disambiguation: 'reject' }).toInstant()
  } catch {
    throw new CliFailure(`${start.local.replace('T', ' ')} is skipped or happens twice in ${timeZone} (a clock change): give the start with its offset, e.g. 2026-10-25T01:30:00+01:00`)
  }
}
