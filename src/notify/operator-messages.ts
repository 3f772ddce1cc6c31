import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { DISABLE_AFTER_MS, retryScheduleInWords, waitInWords } from '../domain/webhook-retry.ts'
import type { BookingFacts } from './email-facts.ts'
import { en } from './email-texts/en.ts'
import { compose, factsBlock, subjectOf, type Block, type Message } from './email-messages.ts'

/**
 * The operator's and staff's messages: in English, as the back office is, whatever the
 * booking's language; the catalog's texts in them are the default language's
 * (src/notify/email-language.ts, operatorEmailLanguage).
 */

/** The operator's messages give the guest's contact, so staff can call or write without opening the back office. */
function guestContactBlock(facts: BookingFacts): Block {
  return { facts: [['Guest', facts.name], ['Email', facts.email ?? 'none given'], ['Phone', facts.phone ?? 'none given']] }
}

const signed = (catalog: InstanceCatalog) => `tourdesk for ${catalog.instance.name}`
const written = (subject: string, blocks: readonly Block[], catalog: InstanceCatalog) => compose(subject, 'Hello,', blocks, signed(catalog), 'en')

export const operatorMessages = {
  newRequest(facts: BookingFacts, catalog: InstanceCatalog, links: { view: string, confirm: string, decline: string }, answerBy: string): Message {
    return written(subjectOf('New request', facts), [
      { paragraph: `${facts.name} asks to book. Unless it is answered by ${answerBy}, the system declines it.` },
      factsBlock(facts, en), guestContactBlock(facts),
      { link: links.confirm, label: 'Confirm it' }, { link: links.decline, label: 'Decline it' }, { link: links.view, label: 'Open it in the back office' },
    ], catalog)
  },
  newBooking(facts: BookingFacts, catalog: InstanceCatalog, view: string): Message {
    return written(subjectOf('New booking', facts), [
      { paragraph: `${facts.name} has booked.` }, factsBlock(facts, en), guestContactBlock(facts), { link: view, label: 'Open it in the back office' },
    ], catalog)
  },
  guestCancelled(facts: BookingFacts, catalog: InstanceCatalog, fee: string | null, view: string): Message {
    return written(subjectOf('Cancelled by the guest', facts), [
      { paragraph: `${facts.name} has cancelled; the seats are free again.${fee ? ` The cancellation fee is ${fee}.` : ''}` },
      factsBlock(facts, en), guestContactBlock(facts), { link: view, label: 'Open it in the back office' },
    ], catalog)
  },
  contactMessage(catalog: InstanceCatalog, message: { name: string | null, email: string | null, message: string }): Message {
    const from = [message.name, message.email ? `<${message.email}>` : null].filter(Boolean).join(' ') || 'someone who left no name'
    return written(`Contact message from ${message.name ?? message.email ?? 'a guest'}`, [{ facts: [['From', from]] }, { paragraph: message.message }], catalog)
  },
  departureAtRisk(catalog: InstanceCatalog, departure: { tour: string, start: string, booked: number, minimum: number }, view: string): Message {
    return written(`At risk: ${departure.tour} · ${departure.start} has ${departure.booked} of ${departure.minimum}`, [
      { paragraph: `${departure.tour} on ${departure.start} has ${departure.booked} ${departure.booked === 1 ? 'guest' : 'guests'}, below its minimum of ${departure.minimum}, and its deadline has passed. Decide whether it runs: cancelling it tells every guest.` },
      { link: view, label: 'Open the departure in the back office' },
    ], catalog)
  },
  webhookFailing(catalog: InstanceCatalog, endpoint: { url: string, since: string }, view: string): Message {
    return written(`Webhook failing for 24 hours: ${endpoint.url}`, [
      { paragraph: `Every delivery to ${endpoint.url} has failed since ${endpoint.since}. Each delivery is ${retryScheduleInWords()}; once every delivery has failed for ${waitInWords(DISABLE_AFTER_MS)}, the endpoint is disabled.` },
      { link: view, label: 'See its delivery log' },
    ], catalog)
  },
  webhookDisabled(catalog: InstanceCatalog, endpoint: { url: string, reason: string }, view: string): Message {
    return written(`Webhook disabled: ${endpoint.url}`, [
      { paragraph: `The endpoint ${endpoint.url} is disabled: ${endpoint.reason}. Nothing more is sent to it until it is enabled again; a replay sends what it missed.` },
      { link: view, label: 'See the endpoint' },
    ], catalog)
  },
}

/** The link a staff member asked for on the sign-in page ("forgot your password?"). */
export function passwordReset(catalog: InstanceCatalog, link: string, hours: number): Message {
  return written(`Choose a new password for ${catalog.instance.name}`, [
    { paragraph: `Someone, we hope you, asked for a new password for the back office of ${catalog.instance.name}. Open the link within ${hours === 1 ? 'an hour' : `${hours} hours`} to choose one; it works once. Your present password keeps working until then. If it was not you, ignore this message.` },
    { link, label: 'Choose a new password' },
  ], catalog)
}
