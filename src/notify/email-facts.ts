import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { cancellationFee, cancellationSteps } from '../domain/cancellation.ts'
import { isOneOf, LIVE_CHECKED_OUT, OWES_ITS_TOTAL } from '../schemas/booking-status.ts'
import { addonLinesOf, policyOf, unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { languageOfBooking } from '../domain/booking-language.ts'
import { fromStoredInstant, toStoredInstant } from '../domain/instant-format.ts'
import { bookedName, tourTexts } from '../domain/translation.ts'
import { describeUnits, onlyImplicitUnit, type UnitLine } from '../domain/units.ts'
import { languageName, localStart, money, percent, type EmailLanguage } from './email-language.ts'
import type { EmailTexts } from './email-texts/en.ts'

/** What a booking's messages say about it, in the operator's zone and the email's language. */
export interface BookingFacts {
  code: string
  tour: string
  start: string
  /** The language it is guided in, named in the email's ("Portuguese"); null when its tour is guided in one language only, so there was nothing to choose. */
  guidedIn: string | null
  meetingPoint: string | null
  party: number
  /**
   * Who the party is, "2 Adult, 1 Child", and what each unit costs, "Adult × 2 (€50.00)"; null
   * for a booking of only a tour's implicit "person" unit, whose messages say "Party: 2" as they
   * did before units (docs/units.md, "Emails and back office").
   */
  units: { described: string, lines: string[] } | null
  /** "Ginjinha tasting × 2 (€7.00)", one per add-on taken. */
  addons: string[]
  /** The total while it is due on arrival; null once nothing is (declined, cancelled, no-show): a fee is stated as the fee. */
  due: string | null
  /** Whether the guest may still change or cancel it (requested or confirmed). */
  open: boolean
  name: string
  /** The guest's contact, for the operator's messages. */
  email: string | null
  phone: string | null
}

/**
 * The booking's facts in `language`: the tour's title and meeting point from its translation,
 * field by field (src/domain/translation.ts); unit and add-on names from it too, else as the
 * booking's lines were booked.
 */
export function bookingFacts(row: BookingRecord, catalog: InstanceCatalog, language: EmailLanguage): BookingFacts {
  const tour = catalog.tourById.get(row.tour_id)?.catalog
  // The default's texts are the tour's own fields: nothing to look up for most emails.
  const texts = tour && !language.isDefault ? tourTexts(tour, language.tag) : tour
  const named = <Line extends { id: string, name: string }>(kind: 'units' | 'addons', line: Line): Line =>
    (language.isDefault ? line : { ...line, name: bookedName(tour, language.tag, kind, line.id, line.name) })
  const addons = addonLinesOf(row).map((line) => named('addons', line))
  const units = row.units === undefined ? [] : unitLinesOf(row).map((line) => named('units', line))
  return {
    code: row.code ?? '',
    tour: texts?.title ?? row.tour_id,
    start: localStart(row.start_at, catalog.instance.timezone, language),
    guidedIn: tour && tour.languages.length > 1 ? languageName(languageOfBooking(row, tour, catalog.instance), language) : null,
    meetingPoint: tour && texts ? `${texts.meeting_point.name}, ${tour.meeting_point.address}` : null,
    party: row.party,
    // An event recorded before migration 025 (src/store/migrations/price-categories.ts) carries no units: its party is all there was.
    units: unitsFact(units, row.party, row.currency, language),
    addons: addons.map((addon) => `${addon.name} × ${addon.quantity} (${money(addon.amount, row.currency, language)})`),
    due: isOneOf(OWES_ITS_TOTAL, row.status) ? money(row.total, row.currency, language) : null,
    open: isOneOf(LIVE_CHECKED_OUT, row.status),
    name: row.contact_name ?? '',
    email: row.contact_email,
    phone: row.contact_phone,
  }
}

function unitsFact(lines: UnitLine[], party: number, currency: string, language: EmailLanguage): BookingFacts['units'] {
  if (onlyImplicitUnit(lines)) return null
  const { facts } = language.texts
  // A family ticket counts several people in one: then the people are said too.
  const people = lines.reduce((sum, line) => sum + line.quantity, 0) === party ? '' : ` (${facts.people(party)})`
  return {
    described: `${describeUnits(lines)}${people}`,
    lines: lines.map((line) => `${line.name} × ${line.quantity} (${line.amount === 0 ? facts.free : money(line.amount, currency, language)})`),
  }
}

/** "Party: 2", or "Party: 2 Adult, 1 Child" and a line per unit with its amount: the facts the messages and the calendar file give. */
export function partyFacts(facts: BookingFacts, texts: EmailTexts): Array<[string, string]> {
  if (facts.units === null) return [[texts.facts.party, String(facts.party)]]
  return [[texts.facts.party, facts.units.described], ...facts.units.lines.map((line): [string, string] => [texts.facts.ticket, line])]
}

/**
 * The booking's cancellation terms (the policy it was made under), as moments in the operator's
 * zone and what cancelling costs until each, from `now` on: ["Until Sat, 28 Nov 2026, 09:30
 * (Lisbon time)", "free of charge"], …, and what not turning up costs.
 */
export function cancellationTerms(row: BookingRecord, catalog: InstanceCatalog, now: Temporal.Instant, language: EmailLanguage): Array<[string, string]> {
  const { terms: words } = language.texts
  const start = fromStoredInstant(row.start_at)
  const policy = policyOf(row, catalog.instance.cancellation_policy)
  const cost = (feePercent: number) =>
    (feePercent === 0 ? words.freeOfCharge : words.fee(percent(feePercent, language), money(cancellationFee(row.total, feePercent), row.currency, language)))
  const steps = cancellationSteps(policy, start).filter((step) => Temporal.Instant.compare(step.until, now) > 0)
  const terms = steps.map(({ until, feePercent }): [string, string] => [
    Temporal.Instant.compare(until, start) === 0 ? words.untilStart : words.until(localStart(toStoredInstant(until), catalog.instance.timezone, language)), cost(feePercent)])
  const last = steps.at(-1)
  if (!last) terms.push([words.fromNow, words.noLongerCancellable])
  else if (Temporal.Instant.compare(last.until, start) < 0) terms.push([words.afterThat, words.noLongerCancellable])
  terms.push([words.notTurningUp, cost(policy.no_show_fee_percent)])
  return terms
}
