import type { GuestErrorCode as ErrorCode } from '../../src/errors/codes.ts'
import type { Tour } from '../../src/schemas/tour.ts'
import { ApiProblem } from './api.ts'
import type { Formats } from './format.ts'
import type { PageWords } from './words/en.ts'

/**
 * Where a message is shown: next to a field of the booking forms (`code` and `email` are
 * also the lookup form's), or next to the button of the action that failed. `addons.<id>` is
 * one add-on's quantity, `units.<id>` one unit's count and `units` the counts as a whole.
 */
export type Place = 'party' | 'units' | `units.${string}` | 'date' | 'time' | 'addons' | `addons.${string}` | 'promo' | 'name' | 'email' | 'phone' | 'code' | 'action'

type Unit = Tour['units'][number]

export interface Explanation {
  place: Place
  text: string
}

/** Fields named by the API's `errors[].field`, with what a guest should do about them. */
const FIELDS: Record<string, (words: PageWords) => Explanation> = {
  party: (words) => ({ place: 'party', text: words.problems.party }),
  start: (words) => ({ place: 'time', text: words.problems.start }),
  promo_code: (words) => ({ place: 'promo', text: words.problems.promoLength }),
  name: (words) => ({ place: 'name', text: words.problems.name }),
  email: (words) => ({ place: 'email', text: words.validEmail }),
  phone: (words) => ({ place: 'phone', text: words.problems.phone }),
  code: (words) => ({ place: 'code', text: words.problems.code }),
  token: (words) => ({ place: 'action', text: words.problems.token }),
}

/**
 * A unit's booking rules as the guest reads them next to its count, before breaking one
 * (src/domain/units.ts decides them): ["only together with at least one Adult", "at most 2
 * per booking"]. Empty for a unit that any count from 0 up to the party's bound may take.
 */
export function unitRules(formats: Formats, unit: Unit, units: readonly Unit[]): string[] {
  const words = formats.words.units
  const names = unit.accompanied_by.map((id) => units.find((other) => other.id === id)?.name ?? id)
  return [
    names.length > 0 ? words.togetherWith(new Intl.ListFormat(formats.locale, { type: 'disjunction' }).format(names)) : '',
    unit.min_quantity > 1 ? words.atLeast(unit.min_quantity) : '',
    unit.max_quantity !== null ? words.atMost(unit.max_quantity) : '',
  ].filter(Boolean)
}

/** "Child: only together with at least one Adult." for a unit's count the rules refuse (or a unit the page no longer knows). */
function unitRefused(formats: Formats, problem: ApiProblem, tour?: Tour): Explanation {
  const words = formats.words.problems
  const field = problem.errors[0]?.field ?? ''
  const unit = tour?.units.find((u) => `units.${u.id}` === field)
  if (!unit) return { place: 'units', text: words.mixRefused }
  const rules = unitRules(formats, unit, tour!.units)
  return { place: field as Place, text: rules.length > 0 ? words.unitRules(unit.name, rules.join('; ')) : words.checkUnit(unit.name) }
}

function validation(formats: Formats, problem: ApiProblem): Explanation {
  const { words } = formats
  const field = problem.errors[0]?.field ?? ''
  if (field.startsWith('addons.')) return { place: field as Place, text: words.problems.addonQuantity }
  if (field.startsWith('units.')) return { place: field as Place, text: words.problems.unitQuantity }
  // The API says what is wrong with a number (src/services/phone-number.ts): too short for its
  // country, not in use there, no country code… which a fixed sentence cannot (in English).
  const said = problem.errors[0]?.message
  if (field === 'phone' && said) return { place: 'phone', text: words.problems.phoneSaid(said) }
  return FIELDS[field]?.(words) ?? { place: 'action', text: words.problems.form }
}

type Explainer = (formats: Formats, problem: ApiProblem, tour?: Tour) => Explanation

/** An explainer that always says the same sentence of the catalogue at the same place. */
const says = (place: Place, text: (words: PageWords['problems']) => string): Explainer =>
  (formats) => ({ place, text: text(formats.words.problems) })

/** Every code the API can answer with, and `network` when no answer came, as a sentence for the guest. */
const EXPLAIN: Record<ErrorCode | 'network', Explainer> = {
  bad_request: says('action', (w) => w.reload),
  request_timeout: says('action', (w) => w.slow),
  invalid_json: says('action', (w) => w.reload),
  unsupported_media_type: says('action', (w) => w.reload),
  method_not_allowed: says('action', (w) => w.reload),
  expectation_failed: says('action', (w) => w.reload),
  validation_failed: validation,
  csrf_missing: says('action', (w) => w.session),
  csrf_invalid: says('action', (w) => w.session),
  origin_not_allowed: says('action', (w) => w.origin),
  // The booking page sends no key; only a misconfigured integration meets this.
  reseller_key_refused: says('action', (w) => w.reload),
  not_found: says('action', (w) => w.notFound),
  tour_not_found: says('action', (w) => w.tourGone),
  no_booking: says('action', (w) => w.noHold),
  insufficient_capacity: (formats, p) => {
    const remaining = Number(p.details.remaining ?? 0)
    const words = formats.words.problems
    return { place: 'time', text: remaining > 0 ? words.fewLeft(remaining) : words.soldOut }
  },
  cancellation_not_allowed: says('action', (w) => w.cannotCancel),
  idempotency_in_flight: says('action', (w) => w.inFlight),
  idempotency_key_reused: says('action', (w) => w.keyReused),
  // Only a retry that outlived a privacy erasure of the guest meets this; a reload starts afresh.
  idempotent_answer_erased: says('action', (w) => w.reload),
  hold_expired: says('action', (w) => w.holdLapsed),
  payload_too_large: says('action', (w) => w.tooLarge),
  headers_too_large: says('action', (w) => w.headersTooLarge),
  slot_not_found: says('time', (w) => w.timeGone),
  cutoff_passed: says('time', (w) => w.cutoff),
  party_out_of_range: (formats, p) => ({ place: 'party', text: formats.words.problems.partyRange(Number(p.details.min), Number(p.details.max)) }),
  // The page sends party as the people its counts add up to, so a mismatch or an unknown unit
  // means the tour's units changed since the page was loaded.
  party_mismatch: says('units', (w) => w.ticketsChanged),
  invalid_unit: says('units', (w) => w.ticketGone),
  unit_not_allowed: unitRefused,
  // The page sends a language only when the tour offers it: the tour's languages changed since the page was loaded.
  language_not_offered: says('action', (w) => w.languageGone),
  invalid_addon: (formats, p) => {
    const field = p.errors[0]?.field
    return { place: field?.startsWith('addons.') ? field as Place : 'addons', text: formats.words.problems.addonRefused }
  },
  invalid_promo_code: says('promo', (w) => w.promoRefused),
  date_out_of_range: says('date', (w) => w.datesTooFar),
  rate_limited: (formats, p) => ({ place: 'action', text: formats.words.problems.tooMany(Number(p.details.retry_after) || 0) }),
  internal: says('action', (w) => w.internal),
  unavailable: says('action', (w) => w.unavailable),
  network: says('action', (w) => w.network),
}

/**
 * The sentence for a failed call and where it belongs; a code this page does not know still
 * gets one. Given the tour, a refused unit count is said with the unit's name and rules.
 */
export function explain(formats: Formats, problem: ApiProblem, tour?: Tour): Explanation {
  const explainer = EXPLAIN[problem.code as ErrorCode | 'network'] ?? EXPLAIN.internal
  return explainer(formats, problem, tour)
}

/** Like `explain`, for anything a call can throw: a fault in this page itself reads as `internal`. */
export function explainError(formats: Formats, err: unknown, tour?: Tour): Explanation {
  return explain(formats, err instanceof ApiProblem ? err : new ApiProblem('internal', 0), tour)
}
