import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { ParsedMail } from 'mailparser'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'
import { guestBooking } from '../admin/bookings-fixtures.ts'

// Guest emails and their calendar files in the email's language (issue 29, item 4;
// docs/languages.md, "Emails and calendar files"), through the in-process SMTP server; the
// operator's stay English.

const OPERATOR = 'ops@tours.example'
const GUEST = { name: 'Ana Silva', email: 'ana@example.pt', phone: '+351 912 345 678' }
/** Fri 5 Jun 2026, 09:30 in Lisbon: four days after the test clock's Mon 1 Jun, 09:00. */
const ALFAMA_FRI = '2026-06-05T08:30:00Z'

type Catalog = ReturnType<typeof demoCatalog>
const lisbonOf = (catalog: Catalog) => catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon')

async function withMail(t: TestContext, catalog: Catalog): Promise<{ service: TestService, sink: MailSink }> {
  const sink = await mailSink()
  t.after(sink.close)
  lisbonOf(catalog).operator_emails = [OPERATOR]
  return { service: await build(t, { catalog, email: { smtpUrl: sink.url } }), sink }
}

async function deliverEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0].address
function mailTo(sink: MailSink, address: string): ParsedMail {
  const mails = sink.messages.filter((m) => to(m) === address)
  assert.equal(mails.length, 1, `one email to ${address}; got ${sink.messages.map((m) => `${to(m)}: ${m.subject}`).join(', ')}`)
  return mails[0]
}
function calendarEvent(mail: ParsedMail): VEvent {
  const attachment = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))
  assert.ok(attachment, `${mail.subject} carries a calendar file`)
  const [event] = Object.values(ical.sync.parseICS(attachment.content.toString('utf8'))).filter((c) => c?.type === 'VEVENT') as VEvent[]
  return event
}

/** Intl puts no-break spaces in amounts ("7,00 €") and French punctuation: compared as spaces. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

/** A Lisbon moment as the emails write it in `locale`, zone aside: what Intl makes of it is Intl's to decide. */
const lisbonMoment = (instant: string, locale: string) => new Intl.DateTimeFormat(locale, {
  timeZone: 'Europe/Lisbon', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
}).format(new Date(instant))

test('an instance whose default language is Portuguese writes its guests’ emails and calendar files in Portuguese; the operator’s stay English', async (t) => {
  const catalog = demoCatalog()
  const lisbon = lisbonOf(catalog)
  // Portuguese first: the catalog's own fields are then the Portuguese texts, and no translation may be in it.
  lisbon.languages = ['pt', 'en', 'es']
  delete lisbon.cancellation_policy.translations.pt
  for (const tour of lisbon.tours) delete tour.translations?.pt
  const { service, sink } = await withMail(t, catalog)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2, addons: { 'ginjinha-tasting': 2 } }, GUEST)
  await deliverEmails(service)

  const confirmed = mailTo(sink, GUEST.email)
  const when = `${lisbonMoment(ALFAMA_FRI, 'pt-PT')} (Hora da Europa Ocidental)`
  assert.equal(confirmed.subject, `Reserva confirmada: Alfama & Mouraria Walking Tour · ${when} · ${booking.code}`)
  const text = spaced(confirmed.text!)
  for (const line of ['Olá Ana Silva,', 'A sua reserva está confirmada.', `Quando: ${when}`, 'Grupo: 2', 'Extra: Ginjinha tasting × 2 (7,00 €)', 'Cancelar custa:', 'Não comparecer: 100% do total,']) {
    assert.ok(text.includes(line), `${line} in:\n${text}`)
  }
  assert.ok(!/Booking|Party|Fri|Jun/.test(text), `no English word left:\n${text}`)
  assert.match(String(confirmed.html), /^<!doctype html><html lang="pt">/)
  assert.ok(String(confirmed.html).includes('<th align="left" style="padding-right:12px">Ponto de encontro</th>'), String(confirmed.html))
  const event = calendarEvent(confirmed)
  assert.ok(spaced(String(event.description)).startsWith(`Reserva ${booking.code}\nGrupo: 2\nExtra: Ginjinha tasting × 2 (7,00 €)`), String(event.description))

  const alert = mailTo(sink, OPERATOR)
  assert.ok(alert.subject!.startsWith('New booking: Alfama & Mouraria Walking Tour · Fri, 5 Jun 2026, 09:30 (Lisbon time)'), alert.subject)
  assert.ok(alert.text!.includes('Add-on: Ginjinha tasting × 2 (€7.00)'), alert.text)
})
