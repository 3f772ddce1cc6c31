import { InvalidArgumentError, Option } from 'commander'
import { Temporal } from 'temporal-polyfill'
import { Value } from 'typebox/value'
import { ROLES } from '../domain/roles.ts'
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

export function parseInstant(value: string): string {
  try {
    return Temporal.Instant.from(value).toString()
  } catch {
    throw new InvalidArgumentError('not an RFC 3339 time with an offset (e.g. 2026-06-02T19:30:00+01:00)')
  }
}
