import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { cancellationFee, cancellationSteps } from '../domain/cancellation.ts'
import { isOneOf, LIVE_CHECKED_OUT, OWES_ITS_TOTAL } from '../schemas/booking-status.ts'
import { addonLinesOf, policyOf, unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { describeUnits, onlyImplicitUnit, type UnitLine } from '../domain/units.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { DISABLE_AFTER_MS, retryScheduleInWords, waitInWords } from '../domain/webhook-retry.ts'

/** What every message is: its subject and its plain-text and HTML bodies, which say the same. */
export interface Message {
  subject: string
  text: string
  html: string
}

/** One block of a message: a paragraph, facts as label and value, or a link the reader acts on. */
type Block = { paragraph: string } | { facts: Array<[string, string]> } | { link: string, label: string }

/** "Europe/Lisbon" is "Lisbon time": the name the booking page gives the operator's zone. */
export function zoneName(zone: string): string {
  const city = zone.includes('/') && !zone.startsWith('Etc/') ? zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ') : null
  return city ? `${city} time` : zone
}

// Making an Intl formatter costs far more than using one: one per zone and per currency, kept.
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const moneyFormats = new Map<string, Intl.NumberFormat>()

/** "Fri, 12 Jun 2026, 19:30 (Lisbon time)": a stored instant in the operator's zone, the zone named. */
export function localStart(stored: string, timeZone: string): string {
  let format = dateFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    dateFormats.set(timeZone, format)
  }
  return `${format.format(new Date(stored))} (${zoneName(timeZone)})`
}

export function money(amount: number, currency: string): string {
  let format = moneyFormats.get(currency)
  if (!format) {
    format = new Intl.NumberFormat('en-GB', { style: 'currency', currency })
    moneyFormats.set(currency, format)
  }
  return format.format(amount / 100)
}

/** Both bodies from the same blocks, so the plain text never says less than the HTML. */
export function compose(subject: string, greeting: string, blocks: readonly Block[], signature: string): Message {
  const text = [greeting, ...blocks.map((block) => {
    if ('paragraph' in block) return block.paragraph
    if ('facts' in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n')
    return `${block.label}: ${block.link}`
  }), signature].join('\n\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2330;max-width:560px">`
    + `<p>${escapeHtml(greeting)}</p>${blocks.map((block) => {
      if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`
      if ('facts' in block) {
        return `<table role="presentation">${block.facts.map(([label, value]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`
      }
      return `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`
    }).join('')}<p>${escapeHtml(signature)}</p></body></html>`
  return { subject, text, html }
}

/** What a booking's messages say about it, in the operator's zone. */
export interface BookingFacts {
  code: string
  tour: string
  start: string
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

export function bookingFacts(row: BookingRecord, catalog: InstanceCatalog): BookingFacts {
  const tour = catalog.tourById.get(row.tour_id)?.catalog
  const addons = addonLinesOf(row)
  return {
    code: row.code ?? '',
    tour: tour?.title ?? row.tour_id,
    start: localStart(row.start_at, catalog.instance.timezone),
    meetingPoint: tour ? `${tour.meeting_point.name}, ${tour.meeting_point.address}` : null,
    party: row.party,
    // An event recorded before migration 025 (src/store/migrations/price-categories.ts) carries no units: its party is all there was.
    units: unitsFact(row.units === undefined ? [] : unitLinesOf(row), row.party, row.currency),
    addons: addons.map((addon) => `${addon.name} × ${addon.quantity} (${money(addon.amount, row.currency)})`),
    due: isOneOf(OWES_ITS_TOTAL, row.status) ? money(row.total, row.currency) : null,
    open: isOneOf(LIVE_CHECKED_OUT, row.status),
    name: row.contact_name ?? '',
    email: row.contact_email,
    phone: row.contact_phone,
  }
}

function unitsFact(lines: UnitLine[], party: number, currency: string): BookingFacts['units'] {
  if (onlyImplicitUnit(lines)) return null
  // A family ticket counts several people in one: then the people are said too.
  const people = lines.reduce((sum, line) => sum + line.quantity, 0) === party ? '' : ` (${party} ${party === 1 ? 'person' : 'people'})`
  return {
    described: `${describeUnits(lines)}${people}`,
    lines: lines.map((line) => `${line.name} × ${line.quantity} (${line.amount === 0 ? 'free' : money(line.amount, currency)})`),
  }
}

/** "Party: 2", or "Party: 2 Adult, 1 Child" and a line per unit with its amount: the facts the messages and the calendar file give. */
export function partyFacts(facts: BookingFacts): Array<[string, string]> {
  if (facts.units === null) return [['Party', String(facts.party)]]
  return [['Party', facts.units.described], ...facts.units.lines.map((line): [string, string] => ['Ticket', line])]
}

/**
 * The booking's cancellation terms (the policy it was made under), as moments in the operator's
 * zone and what cancelling costs until each, from `now` on: ["Until Sat, 28 Nov 2026, 09:30
 * (Lisbon time)", "free of charge"], …, and what not turning up costs.
 */
export function cancellationTerms(row: BookingRecord, catalog: InstanceCatalog, now: Temporal.Instant): Array<[string, string]> {
  const start = Temporal.Instant.from(row.start_at)
  const policy = policyOf(row, catalog.instance.cancellation_policy)
  const cost = (percent: number) => (percent === 0 ? 'free of charge' : `${percent}% of the total, ${money(cancellationFee(row.total, percent), row.currency)}`)
  const steps = cancellationSteps(policy, start).filter((step) => Temporal.Instant.compare(step.until, now) > 0)
  const terms = steps.map(({ until, feePercent }): [string, string] => [
    Temporal.Instant.compare(until, start) === 0 ? 'Until the start' : `Until ${localStart(until.toString(), catalog.instance.timezone)}`, cost(feePercent)])
  const last = steps.at(-1)
  if (!last) terms.push(['From now', 'it can no longer be cancelled'])
  else if (Temporal.Instant.compare(last.until, start) < 0) terms.push(['After that', 'it can no longer be cancelled'])
  terms.push(['Not turning up', cost(policy.no_show_fee_percent)])
  return terms
}

/** "Request received: Fado evening · Fri, 12 Jun 2026, 19:30 (Lisbon time) · K7M2QX": what the guest recognises in a list of mail. */
const subjectOf = (what: string, facts: BookingFacts) => `${what}: ${facts.tour} · ${facts.start} · ${facts.code}`

function factsBlock(facts: BookingFacts): Block {
  const rows: Array<[string, string]> = [['Booking', facts.code], ['Tour', facts.tour], ['When', facts.start]]
  if (facts.meetingPoint) rows.push(['Meeting point', facts.meetingPoint])
  rows.push(...partyFacts(facts))
  for (const addon of facts.addons) rows.push(['Add-on', addon])
  if (facts.due !== null) rows.push(['Total, due on arrival', facts.due])
  return { facts: rows }
}

/** The operator's messages give the guest's contact, so staff can call or write without opening the back office. */
function guestContactBlock(facts: BookingFacts): Block {
  return { facts: [['Guest', facts.name], ['Email', facts.email ?? 'none given'], ['Phone', facts.phone ?? 'none given']] }
}

const termsBlocks = (lead: string, terms: Array<[string, string]>): Block[] => [{ paragraph: lead }, { facts: terms }]

const manageBlock = (manageUrl: string | null, facts: BookingFacts): Block[] =>
  (manageUrl ? [{ link: manageUrl, label: facts.open ? 'See or change your booking' : 'See your booking' }] : [])

/** The guest's messages about a booking. */
export const guestMessages = {
  requestReceived(facts: BookingFacts, catalog: InstanceCatalog, terms: Array<[string, string]>, manageUrl: string | null): Message {
    return compose(subjectOf('Request received', facts), `Hello ${facts.name},`, [
      { paragraph: `Thank you: ${catalog.instance.name} has your request and will confirm or decline it soon. Your seats are kept meanwhile; nothing is due until you arrive.` },
      factsBlock(facts), ...termsBlocks('Once it is confirmed, cancelling costs:', terms), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  confirmed(facts: BookingFacts, catalog: InstanceCatalog, terms: Array<[string, string]>, manageUrl: string | null): Message {
    return compose(subjectOf('Booking confirmed', facts), `Hello ${facts.name},`, [
      { paragraph: 'Your booking is confirmed. The calendar file attached adds it to your calendar.' },
      factsBlock(facts), ...termsBlocks('Cancelling costs:', terms), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  declined(facts: BookingFacts, catalog: InstanceCatalog, reason: string | null, manageUrl: string | null): Message {
    return compose(subjectOf('Request declined', facts), `Hello ${facts.name},`, [
      { paragraph: `We are sorry: ${catalog.instance.name} could not accept your request.${reason ? ` ${reason}` : ''} Nothing is due.` },
      factsBlock(facts), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  cancelled(facts: BookingFacts, catalog: InstanceCatalog, fee: string | null, byGuest: boolean, manageUrl: string | null): Message {
    return compose(subjectOf('Booking cancelled', facts), `Hello ${facts.name},`, [
      { paragraph: byGuest ? 'Your booking is cancelled, as you asked.' : `${catalog.instance.name} has cancelled your booking.` },
      { paragraph: fee ? `A cancellation fee of ${fee} applies, under the terms you booked with.` : 'No cancellation fee applies.' },
      factsBlock(facts), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  departureCancelled(facts: BookingFacts, catalog: InstanceCatalog, reason: string | null, manageUrl: string | null): Message {
    return compose(subjectOf('Departure cancelled', facts), `Hello ${facts.name},`, [
      { paragraph: `We are sorry: ${catalog.instance.name} has cancelled this departure${reason ? ` (${reason})` : ''}, and with it your booking. No fee applies.` },
      factsBlock(facts), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  changed(facts: BookingFacts, catalog: InstanceCatalog, terms: Array<[string, string]>, manageUrl: string | null): Message {
    return compose(subjectOf('Booking changed', facts), `Hello ${facts.name},`, [
      { paragraph: 'Your booking has changed; here it is as it stands now. The calendar file attached updates the event in your calendar.' },
      factsBlock(facts), ...termsBlocks('Cancelling costs:', terms), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
  reminder(facts: BookingFacts, catalog: InstanceCatalog, terms: Array<[string, string]>, manageUrl: string | null): Message {
    return compose(subjectOf('See you soon', facts), `Hello ${facts.name},`, [
      { paragraph: `A reminder of your booking with ${catalog.instance.name}.${facts.meetingPoint ? ` Please be at ${facts.meetingPoint} a few minutes before the start.` : ''}` },
      factsBlock(facts), ...termsBlocks('Cancelling costs:', terms), ...manageBlock(manageUrl, facts),
    ], catalog.instance.name)
  },
}

/** The operator's messages. */
export const operatorMessages = {
  newRequest(facts: BookingFacts, catalog: InstanceCatalog, links: { view: string, confirm: string, decline: string }, answerBy: string): Message {
    return compose(subjectOf('New request', facts), 'Hello,', [
      { paragraph: `${facts.name} asks to book. Unless it is answered by ${answerBy}, the system declines it.` },
      factsBlock(facts), guestContactBlock(facts),
      { link: links.confirm, label: 'Confirm it' }, { link: links.decline, label: 'Decline it' }, { link: links.view, label: 'Open it in the back office' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  newBooking(facts: BookingFacts, catalog: InstanceCatalog, view: string): Message {
    return compose(subjectOf('New booking', facts), 'Hello,', [
      { paragraph: `${facts.name} has booked.` }, factsBlock(facts), guestContactBlock(facts), { link: view, label: 'Open it in the back office' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  guestCancelled(facts: BookingFacts, catalog: InstanceCatalog, fee: string | null, view: string): Message {
    return compose(subjectOf('Cancelled by the guest', facts), 'Hello,', [
      { paragraph: `${facts.name} has cancelled; the seats are free again.${fee ? ` The cancellation fee is ${fee}.` : ''}` },
      factsBlock(facts), guestContactBlock(facts), { link: view, label: 'Open it in the back office' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  contactMessage(catalog: InstanceCatalog, message: { name: string | null, email: string | null, message: string }): Message {
    const from = [message.name, message.email ? `<${message.email}>` : null].filter(Boolean).join(' ') || 'someone who left no name'
    return compose(`Contact message from ${message.name ?? message.email ?? 'a guest'}`, 'Hello,', [
      { facts: [['From', from]] }, { paragraph: message.message },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  departureAtRisk(catalog: InstanceCatalog, departure: { tour: string, start: string, booked: number, minimum: number }, view: string): Message {
    return compose(`At risk: ${departure.tour} · ${departure.start} has ${departure.booked} of ${departure.minimum}`, 'Hello,', [
      { paragraph: `${departure.tour} on ${departure.start} has ${departure.booked} ${departure.booked === 1 ? 'guest' : 'guests'}, below its minimum of ${departure.minimum}, and its deadline has passed. Decide whether it runs: cancelling it tells every guest.` },
      { link: view, label: 'Open the departure in the back office' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  webhookFailing(catalog: InstanceCatalog, endpoint: { url: string, since: string }, view: string): Message {
    return compose(`Webhook failing for 24 hours: ${endpoint.url}`, 'Hello,', [
      { paragraph: `Every delivery to ${endpoint.url} has failed since ${endpoint.since}. Each delivery is ${retryScheduleInWords()}; once every delivery has failed for ${waitInWords(DISABLE_AFTER_MS)}, the endpoint is disabled.` },
      { link: view, label: 'See its delivery log' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
  webhookDisabled(catalog: InstanceCatalog, endpoint: { url: string, reason: string }, view: string): Message {
    return compose(`Webhook disabled: ${endpoint.url}`, 'Hello,', [
      { paragraph: `The endpoint ${endpoint.url} is disabled: ${endpoint.reason}. Nothing more is sent to it until it is enabled again; a replay sends what it missed.` },
      { link: view, label: 'See the endpoint' },
    ], `tourdesk for ${catalog.instance.name}`)
  },
}

export function newsletterConfirmation(catalog: InstanceCatalog, link: string): Message {
  return compose(`Confirm your subscription to ${catalog.instance.name}`, 'Hello,', [
    { paragraph: `Someone, we hope you, asked to receive the newsletter of ${catalog.instance.name} at this address. Open the link within 7 days to confirm; if it was not you, ignore this message and nothing more will come.` },
    { link, label: 'Confirm my subscription' },
  ], catalog.instance.name)
}

/** The link a staff member asked for on the sign-in page ("forgot your password?"). */
export function passwordReset(catalog: InstanceCatalog, link: string, hours: number): Message {
  return compose(`Choose a new password for ${catalog.instance.name}`, 'Hello,', [
    { paragraph: `Someone, we hope you, asked for a new password for the back office of ${catalog.instance.name}. Open the link within ${hours === 1 ? 'an hour' : `${hours} hours`} to choose one; it works once. Your present password keeps working until then. If it was not you, ignore this message.` },
    { link, label: 'Choose a new password' },
  ], `tourdesk for ${catalog.instance.name}`)
}
