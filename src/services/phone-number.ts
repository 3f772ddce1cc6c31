import { parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max'
import { ApiError } from '../errors/api-error.ts'

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })

/** Names whose English takes "the": "the United Kingdom", "the Netherlands". */
const WITH_ARTICLE = /^(United|Netherlands|Philippines|Czech|Dominican|Bahamas|Gambia|Maldives|Central African)/

/** "a number in the United Kingdom (+44)", or "a +44 number" when only the calling code is known. */
function numberOf(parsed: PhoneNumber | undefined, region: string | undefined): string {
  const country = parsed ? parsed.country ?? parsed.getPossibleCountries()[0] : region
  const code = parsed?.countryCallingCode
  if (!country) return code ? `a +${code} number` : 'a phone number'
  const name = regionNames.of(country) ?? country
  return `a number in ${WITH_ARTICLE.test(name) ? 'the ' : ''}${name}${code ? ` (+${code})` : ''}`
}

/**
 * What is wrong with a number libphonenumber refuses, said so that the writer can fix it
 * (issue 25, item 10: a number with its country code was told to add one): no digits, no
 * known country code, too short or too long for its country, or a number of the right shape
 * that is not in use there (as +44 7700 900123, reserved for drama). Starts with a verb, so a
 * page can put "This" or the field's name before it.
 */
function problemOf(raw: string, region: string | undefined): string {
  const parsed = parsePhoneNumberFromString(raw, region as CountryCode | undefined)
  const length = validatePhoneNumberLength(raw, region as CountryCode | undefined)
  const international = raw.trim().startsWith('+') || raw.trim().startsWith('00')
  const number = numberOf(parsed, international ? undefined : region)
  const abroad = international || !region ? '' : '; a number from another country starts with + and its country code'
  switch (length) {
    case 'NOT_A_NUMBER': return 'is not a phone number: write its digits, and for a number from abroad start with + and the country code'
    case 'INVALID_COUNTRY': return international
      ? 'does not start with a known country code after the +'
      : 'has no country code: write it with its country code, starting with +'
    case 'TOO_SHORT': return `is too short for ${number}${abroad}`
    case 'TOO_LONG': return `is too long for ${number}${abroad}`
    case 'INVALID_LENGTH': return `has a length that ${number} never has${abroad}`
    default: return `is not in use as ${number}: check its digits${abroad}`
  }
}

/** E.164 form of a phone number written in any common notation; national numbers use the operator's region. */
export function normalisePhone(raw: string | undefined, region: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null
  const parsed = parsePhoneNumberFromString(raw, region as CountryCode | undefined)
  if (!parsed || !parsed.isValid()) {
    const problem = problemOf(raw, region)
    throw new ApiError('validation_failed', `phone ${problem}`, { errors: [{ field: 'phone', message: problem }] })
  }
  return parsed.number
}
