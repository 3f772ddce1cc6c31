import type { GuestErrorCode as ErrorCode } from '../../src/errors/codes.ts'
import type { Tour } from '../../src/schemas/tour.ts'
import { ApiProblem } from './api.ts'

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

const RELOAD = 'The page could not send this request. Please reload the page and try again.'

/** Fields named by the API's `errors[].field`, with what a guest should do about them. */
const FIELDS: Record<string, Explanation> = {
  party: { place: 'party', text: 'Please enter the number of people as a whole number.' },
  start: { place: 'time', text: 'Please choose one of the start times shown.' },
  promo_code: { place: 'promo', text: 'A promo code has at most 64 characters.' },
  name: { place: 'name', text: 'Please enter your name (at most 200 characters).' },
  email: { place: 'email', text: 'Please enter a valid email address, such as ana@example.com.' },
  phone: { place: 'phone', text: 'This does not look like a phone number we can call. Check it, or write it with the country code, starting with +.' },
  code: { place: 'code', text: 'Please enter the booking code from your confirmation.' },
  token: { place: 'action', text: 'This manage link is incomplete. Please open it again from your confirmation, or enter your booking code and email.' },
}

function seats(n: number): string {
  return n === 1 ? '1 seat is' : `${n} seats are`
}

/**
 * A unit's booking rules as the guest reads them next to its count, before breaking one
 * (src/domain/units.ts decides them): ["only together with at least one Adult", "at most 2
 * per booking"]. Empty for a unit that any count from 0 up to the party's bound may take.
 */
export function unitRules(unit: Unit, units: readonly Unit[]): string[] {
  const names = unit.accompanied_by.map((id) => units.find((other) => other.id === id)?.name ?? id)
  return [
    names.length > 0 ? `only together with at least one ${new Intl.ListFormat('en', { type: 'disjunction' }).format(names)}` : '',
    unit.min_quantity > 1 ? `at least ${unit.min_quantity} when booked at all` : '',
    unit.max_quantity !== null ? `at most ${unit.max_quantity} per booking` : '',
  ].filter(Boolean)
}

/** "Child: only together with at least one Adult." for a unit's count the rules refuse (or a unit the page no longer knows). */
function unitRefused(problem: ApiProblem, tour?: Tour): Explanation {
  const field = problem.errors[0]?.field ?? ''
  const unit = tour?.units.find((u) => `units.${u.id}` === field)
  if (!unit) return { place: 'units', text: 'This mix of tickets cannot be booked. Please check the counts.' }
  const rules = unitRules(unit, tour!.units)
  return { place: field as Place, text: rules.length > 0 ? `${unit.name}: ${rules.join('; ')}.` : `Please check the number of ${unit.name}.` }
}

function validation(problem: ApiProblem): Explanation {
  const field = problem.errors[0]?.field ?? ''
  if (field.startsWith('addons.')) return { place: field as Place, text: 'Please enter a quantity from 0 up to the maximum shown.' }
  if (field.startsWith('units.')) return { place: field as Place, text: 'Please enter a whole number from 0 up to the maximum shown.' }
  // The API says what is wrong with a number (src/services/phone-number.ts): too short for its
  // country, not in use there, no country code… which a fixed sentence cannot.
  const said = problem.errors[0]?.message
  if (field === 'phone' && said) return { place: 'phone', text: `This ${said}.` }
  return FIELDS[field] ?? { place: 'action', text: 'Something in this form could not be accepted. Please check what you entered and try again.' }
}

/** Every code the API can answer with, and `network` when no answer came, as a sentence for the guest. */
const EXPLAIN: Record<ErrorCode | 'network', (problem: ApiProblem, tour?: Tour) => Explanation> = {
  bad_request: () => ({ place: 'action', text: RELOAD }),
  request_timeout: () => ({ place: 'action', text: 'The connection was too slow to send this in time. Please try again.' }),
  invalid_json: () => ({ place: 'action', text: RELOAD }),
  unsupported_media_type: () => ({ place: 'action', text: RELOAD }),
  method_not_allowed: () => ({ place: 'action', text: RELOAD }),
  expectation_failed: () => ({ place: 'action', text: RELOAD }),
  validation_failed: validation,
  csrf_missing: () => ({ place: 'action', text: 'Your booking session could not be verified. Please reload the page and try again.' }),
  csrf_invalid: () => ({ place: 'action', text: 'Your booking session could not be verified. Please reload the page and try again.' }),
  origin_not_allowed: () => ({ place: 'action', text: "Bookings cannot be made from this website. Please book on the tour operator's own site." }),
  // The booking page sends no key; only a misconfigured integration meets this.
  reseller_key_refused: () => ({ place: 'action', text: RELOAD }),
  not_found: () => ({ place: 'action', text: 'The booking service could not find what this page asked for. Please reload the page.' }),
  tour_not_found: () => ({ place: 'action', text: 'This tour is no longer offered. Please choose another tour.' }),
  no_booking: () => ({ place: 'action', text: 'You have no seats held at the moment. Choose a time and hold it again.' }),
  insufficient_capacity: (p) => {
    const remaining = Number(p.details.remaining ?? 0)
    return {
      place: 'time',
      text: remaining > 0
        ? `Only ${seats(remaining)} left at this time. Choose a smaller group or another time.`
        : 'This time has just sold out. Please choose another time.',
    }
  },
  cancellation_not_allowed: () => ({ place: 'action', text: 'This booking can no longer be cancelled online. Please contact the tour operator.' }),
  idempotency_in_flight: () => ({ place: 'action', text: 'Your previous request is still being processed. Please wait a moment and try again.' }),
  idempotency_key_reused: () => ({ place: 'action', text: 'This request clashed with an earlier one. Please try again.' }),
  hold_expired: () => ({ place: 'action', text: 'Your hold has lapsed, so the seats are no longer reserved. Hold the time again to continue.' }),
  payload_too_large: () => ({ place: 'action', text: 'What you entered is too long to send. Please shorten it and try again.' }),
  headers_too_large: () => ({ place: 'action', text: "Your browser sent too much data with this request. Please clear this site's cookies and try again." }),
  slot_not_found: () => ({ place: 'time', text: 'That start time is no longer offered. Please choose another time.' }),
  cutoff_passed: () => ({ place: 'time', text: 'Booking for that time has closed. Please choose a later time.' }),
  party_out_of_range: (p) => ({ place: 'party', text: `This tour takes groups of ${p.details.min} to ${p.details.max} people.` }),
  // The page sends party as the people its counts add up to, so a mismatch or an unknown unit
  // means the tour's units changed since the page was loaded.
  party_mismatch: () => ({ place: 'units', text: 'The tickets of this tour have changed since the page was opened. Please reload the page and choose again.' }),
  invalid_unit: () => ({ place: 'units', text: 'One of these tickets is no longer offered. Please reload the page and choose again.' }),
  unit_not_allowed: unitRefused,
  // The page sends no language: the tour's languages changed since the page was loaded.
  language_not_offered: () => ({ place: 'action', text: 'This tour is no longer guided in the language chosen. Please reload the page and choose again.' }),
  invalid_addon: (p) => {
    const field = p.errors[0]?.field
    return { place: field?.startsWith('addons.') ? field as Place : 'addons', text: 'That extra is not available in this quantity. Please choose fewer.' }
  },
  invalid_promo_code: () => ({ place: 'promo', text: 'This promo code is not valid for this booking. Check it, or remove it and hold the seats again.' }),
  date_out_of_range: () => ({ place: 'date', text: 'These dates cannot be booked yet. Please choose earlier dates.' }),
  rate_limited: (p) => {
    const wait = Number(p.details.retry_after)
    return { place: 'action', text: `Too many requests in a short time. Please wait ${wait > 0 ? `${wait} seconds` : 'a moment'} and try again.` }
  },
  internal: () => ({ place: 'action', text: 'Something went wrong on our side. Please try again.' }),
  unavailable: () => ({ place: 'action', text: 'The booking service is briefly unavailable. Please try again in a moment.' }),
  network: () => ({ place: 'action', text: 'The booking service could not be reached. Check your connection and try again.' }),
}

/**
 * The sentence for a failed call and where it belongs; a code this page does not know still
 * gets one. Given the tour, a refused unit count is said with the unit's name and rules.
 */
export function explain(problem: ApiProblem, tour?: Tour): Explanation {
  const explainer = EXPLAIN[problem.code as ErrorCode | 'network'] ?? EXPLAIN.internal
  return explainer(problem, tour)
}

/** Like `explain`, for anything a call can throw: a fault in this page itself reads as `internal`. */
export function explainError(err: unknown, tour?: Tour): Explanation {
  return explain(err instanceof ApiProblem ? err : new ApiProblem('internal', 0), tour)
}
