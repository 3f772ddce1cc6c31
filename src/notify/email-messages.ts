import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { partyFacts, type BookingFacts } from './email-facts.ts'
import type { EmailLanguage } from './email-language.ts'
import type { EmailTexts } from './email-texts/en.ts'

/** What every message is: its subject and its plain-text and HTML bodies, which say the same. */
export interface Message {
  subject: string
  text: string
  html: string
}

/** One block of a message: a paragraph, facts as label and value, or a link the reader acts on. */
export type Block = { paragraph: string } | { facts: Array<[string, string]> } | { link: string, label: string }

/** Both bodies from the same blocks, so the plain text never says less than the HTML. `lang` is the HTML's language. */
export function compose(subject: string, greeting: string, blocks: readonly Block[], signature: string, lang: string): Message {
  const text = [greeting, ...blocks.map((block) => {
    if ('paragraph' in block) return block.paragraph
    if ('facts' in block) return block.facts.map(([label, value]) => `${label}: ${value}`).join('\n')
    return `${block.label}: ${block.link}`
  }), signature].join('\n\n')
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><body style="font-family:system-ui,sans-serif;color:#1f2330;max-width:560px">`
    + `<p>${escapeHtml(greeting)}</p>${blocks.map((block) => {
      if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`
      if ('facts' in block) {
        return `<table role="presentation">${block.facts.map(([label, value]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`
      }
      return `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`
    }).join('')}<p>${escapeHtml(signature)}</p></body></html>`
  return { subject, text, html }
}

/** "Request received: Fado evening · Fri, 12 Jun 2026, 19:30 (Lisbon time) · K7M2QX": what the reader recognises in a list of mail. */
export const subjectOf = (what: string, facts: BookingFacts) => `${what}: ${facts.tour} · ${facts.start} · ${facts.code}`

export function factsBlock(facts: BookingFacts, texts: EmailTexts): Block {
  const words = texts.facts
  const rows: Array<[string, string]> = [[words.booking, facts.code], [words.tour, facts.tour], [words.when, facts.start]]
  if (facts.guidedIn) rows.push([words.guidedIn, facts.guidedIn])
  if (facts.meetingPoint) rows.push([words.meetingPoint, facts.meetingPoint])
  rows.push(...partyFacts(facts, texts))
  for (const addon of facts.addons) rows.push([words.addon, addon])
  if (facts.due !== null) rows.push([words.dueOnArrival, facts.due])
  return { facts: rows }
}

const termsBlocks = (lead: string, terms: Array<[string, string]>): Block[] => [{ paragraph: lead }, { facts: terms }]

/**
 * The guest's messages about a booking, in the email's language (src/notify/email-language.ts):
 * the words from its catalogue, the facts already written in it.
 */
export function guestMessages(language: EmailLanguage, catalog: InstanceCatalog) {
  const { texts } = language
  const instance = catalog.instance.name
  const message = (subject: string, facts: BookingFacts, blocks: Block[], manageUrl: string | null): Message =>
    compose(subjectOf(subject, facts), texts.greeting(facts.name), [
      ...blocks, ...(manageUrl ? [{ link: manageUrl, label: facts.open ? texts.manage.open : texts.manage.closed }] : []),
    ], instance, language.tag)
  const { paragraphs, subjects } = texts
  return {
    requestReceived: (facts: BookingFacts, terms: Array<[string, string]>, manageUrl: string | null) => message(subjects.requestReceived, facts, [
      { paragraph: paragraphs.requestReceived(instance) }, factsBlock(facts, texts), ...termsBlocks(texts.terms.leadBeforeConfirmation, terms),
    ], manageUrl),
    confirmed: (facts: BookingFacts, terms: Array<[string, string]>, manageUrl: string | null) => message(subjects.confirmed, facts, [
      { paragraph: paragraphs.confirmed }, factsBlock(facts, texts), ...termsBlocks(texts.terms.lead, terms),
    ], manageUrl),
    declined: (facts: BookingFacts, reason: string | null, manageUrl: string | null) => message(subjects.declined, facts, [
      { paragraph: paragraphs.declined(instance, reason) }, factsBlock(facts, texts),
    ], manageUrl),
    cancelled: (facts: BookingFacts, fee: string | null, byGuest: boolean, manageUrl: string | null) => message(subjects.cancelled, facts, [
      { paragraph: byGuest ? paragraphs.cancelledByGuest : paragraphs.cancelledByOperator(instance) },
      { paragraph: fee ? paragraphs.cancellationFee(fee) : paragraphs.noCancellationFee }, factsBlock(facts, texts),
    ], manageUrl),
    departureCancelled: (facts: BookingFacts, reason: string | null, manageUrl: string | null) => message(subjects.departureCancelled, facts, [
      { paragraph: paragraphs.departureCancelled(instance, reason) }, factsBlock(facts, texts),
    ], manageUrl),
    changed: (facts: BookingFacts, terms: Array<[string, string]>, manageUrl: string | null) => message(subjects.changed, facts, [
      { paragraph: paragraphs.changed }, factsBlock(facts, texts), ...termsBlocks(texts.terms.lead, terms),
    ], manageUrl),
    reminder: (facts: BookingFacts, terms: Array<[string, string]>, manageUrl: string | null) => message(subjects.reminder, facts, [
      { paragraph: paragraphs.reminder(instance, facts.meetingPoint) }, factsBlock(facts, texts), ...termsBlocks(texts.terms.lead, terms),
    ], manageUrl),
  }
}

/** The confirmation of a newsletter sign-up: a guest's, in the instance's default language (a sign-up keeps no language of its own). */
export function newsletterConfirmation(catalog: InstanceCatalog, language: EmailLanguage, link: string): Message {
  const words = language.texts.newsletter
  const instance = catalog.instance.name
  return compose(words.subject(instance), words.greeting, [{ paragraph: words.paragraph(instance) }, { link, label: words.link }], instance, language.tag)
}
