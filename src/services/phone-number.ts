import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max'
import { ApiError } from '../errors/api-error.ts'

/** E.164 form of a phone number written in any common notation; national numbers use the operator's region. */
export function normalisePhone(raw: string | undefined, region: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null
  const parsed = parsePhoneNumberFromString(raw, region as CountryCode | undefined)
  if (!parsed || !parsed.isValid()) {
    const hint = region ? '' : ' in international form, starting with +'
    throw new ApiError('validation_failed', `phone is not a valid phone number${hint}`, {
      errors: [{ field: 'phone', message: `is not a valid phone number${hint}` }],
    })
  }
  return parsed.number
}
