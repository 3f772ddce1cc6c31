import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { ParsedMail } from 'mailparser'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'
import { FADO_TUE, guestBooking, keyOf } from '../admin/bookings-fixtures.ts'

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
  for (const line of ['Olá Ana Silva,', 'A sua reserva está confirmada.', `Quando: ${when}\nIdioma do guia: português\n`, 'Grupo: 2', 'Extra: Ginjinha tasting × 2 (7,00 €)', 'Cancelar custa:', 'Não comparecer: 100% do total,']) {
    assert.ok(text.includes(line), `${line} in:\n${text}`)
  }
  assert.ok(!/Booking|Party|Fri|Jun/.test(text), `no English word left:\n${text}`)
  assert.match(String(confirmed.html), /^<!doctype html><html lang="pt">/)
  assert.ok(String(confirmed.html).includes('<th align="left" style="padding-right:12px">Ponto de encontro</th>'), String(confirmed.html))
  const event = calendarEvent(confirmed)
  assert.ok(spaced(String(event.description)).startsWith(`Reserva ${booking.code}\nIdioma do guia: português\nGrupo: 2\nExtra: Ginjinha tasting × 2 (7,00 €)`), String(event.description))

  const alert = mailTo(sink, OPERATOR)
  assert.ok(alert.subject!.startsWith('New booking: Alfama & Mouraria Walking Tour · Fri, 5 Jun 2026, 09:30 (Lisbon time)'), alert.subject)
  assert.ok(alert.text!.includes('Add-on: Ginjinha tasting × 2 (€7.00)'), alert.text)
})

/** Fri 5 Jun 2026, 17:30 in Lisbon: the sail's first departure that day. */
const SAIL_FRI = '2026-06-05T16:30:00Z'
const SAIL_PARTY = { tour_id: 'tagus-sunset-sail', start: SAIL_FRI, party: 4, units: { adult: 2, child: 1, infant: 1 }, addons: { 'vinho-verde': 2 } }

/** The demo, its sail's adult and child translated into Portuguese and its infant not: the infant's name falls back to the one booked. */
function catalogWithSailUnitsInPortuguese(): Catalog {
  const catalog = demoCatalog()
  const sail = lisbonOf(catalog).tours.find((tour: { id: string }) => tour.id === 'tagus-sunset-sail')
  sail.translations.pt.units = { adult: { name: 'Adulto' }, child: { name: 'Criança' } }
  return catalog
}

test('a booking guided in Portuguese is confirmed in Portuguese (subject, text, HTML, .ics), one in English in English, and the operator hears of both in English', async (t) => {
  const { service, sink } = await withMail(t, catalogWithSailUnitsInPortuguese())
  const pt = await guestBooking(service, { ...SAIL_PARTY, language: 'pt' }, GUEST)
  assert.equal(pt.booking.language, 'pt')
  const other = { ...GUEST, name: 'Jane Doe', email: 'jane@example.com' }
  const en = await guestBooking(service, { ...SAIL_PARTY, language: 'en' }, other)
  await deliverEmails(service)

  const portuguese = mailTo(sink, GUEST.email)
  const quando = `${lisbonMoment(SAIL_FRI, 'pt-PT')} (Hora da Europa Ocidental)`
  assert.equal(portuguese.subject, `Reserva confirmada: Passeio de veleiro ao pôr do sol no Tejo · ${quando} · ${pt.booking.code}`)
  const facts = `Reserva: ${pt.booking.code}\nPasseio: Passeio de veleiro ao pôr do sol no Tejo\nQuando: ${quando}\nIdioma do guia: português\n`
    + 'Ponto de encontro: Doca de Santo Amaro, pontão B, Doca de Santo Amaro, 1350-353 Lisboa, Portugal\n'
    + 'Grupo: 2 Adulto, 1 Criança, 1 Infant\nBilhete: Adulto × 2 (130,00 €)\nBilhete: Criança × 1 (35,00 €)\nBilhete: Infant × 1 (grátis)\n'
    + 'Extra: Copo de vinho verde × 2 (12,00 €)\nTotal, a pagar à chegada: 177,00 €'
  const text = spaced(portuguese.text!)
  assert.ok(text.startsWith(`Olá Ana Silva,\n\nA sua reserva está confirmada. O ficheiro de calendário em anexo acrescenta-a ao seu calendário.\n\n${facts}\n\nCancelar custa:\n\n`), text)
  assert.ok(text.includes('\nAté ao início: 100% do total, 177,00 €\nNão comparecer: 100% do total, 177,00 €\n\nVer ou alterar a sua reserva: '), text)
  const html = spaced(String(portuguese.html))
  assert.match(html, /^<!doctype html><html lang="pt">/)
  assert.ok(html.includes('<th align="left" style="padding-right:12px">Extra</th><td>Copo de vinho verde × 2 (12,00 €)</td>'), html)
  assert.ok(html.includes('>Ver ou alterar a sua reserva</a>'), html)
  const event = calendarEvent(portuguese)
  assert.equal(event.summary, 'Passeio de veleiro ao pôr do sol no Tejo (Alfama & Tejo Tours)')
  assert.equal(event.location, 'Doca de Santo Amaro, pontão B, Doca de Santo Amaro, 1350-353 Lisboa, Portugal')
  assert.ok(spaced(String(event.description)).startsWith(`Reserva ${pt.booking.code}\nIdioma do guia: português\nGrupo: 2 Adulto, 1 Criança, 1 Infant\nBilhete: Adulto × 2 (130,00 €)\n`), String(event.description))
  assert.match(String(event.description), /\nGerir: http:\/\/127\.0\.0\.1:\d+\/book\/lisbon\/manage#/)

  const english = mailTo(sink, other.email)
  assert.equal(english.subject, `Booking confirmed: Tagus Sunset Sail · Fri, 5 Jun 2026, 17:30 (Lisbon time) · ${en.booking.code}`)
  assert.ok(english.text!.startsWith('Hello Jane Doe,\n\nYour booking is confirmed.'), english.text)
  assert.ok(english.text!.includes('Guided in: English\nMeeting point: Doca de Santo Amaro marina, pontoon B, Doca de Santo Amaro, 1350-353 Lisboa, Portugal\n'
    + 'Party: 2 Adult, 1 Child, 1 Infant\nTicket: Adult × 2 (€130.00)\n'), english.text)
  assert.match(String(english.html), /^<!doctype html><html lang="en">/)
  assert.equal(calendarEvent(english).summary, 'Tagus Sunset Sail (Alfama & Tejo Tours)')

  const alerts = sink.messages.filter((m) => to(m) === OPERATOR)
  assert.deepEqual(alerts.map((m) => m.subject).sort(), [pt, en].map(({ booking }) => `New booking: Tagus Sunset Sail · Fri, 5 Jun 2026, 17:30 (Lisbon time) · ${booking.code}`).sort())
  for (const alert of alerts) assert.ok(alert.text!.includes('Party: 2 Adult, 1 Child, 1 Infant\nTicket: Adult × 2 (€130.00)\n'), alert.text)
  const alertOfPt = alerts.find((m) => m.subject!.endsWith(pt.booking.code))!
  assert.ok(alertOfPt.text!.includes('Guided in: Portuguese\n'), `the operator reads the guide's language in English: ${alertOfPt.text}`)


  // Sent again by staff, the confirmation is made as the first was: in the booking's language.
  assert.equal((await (await keyOf(service, 'staff')).post(`/bookings/${pt.booking.code}/resend-confirmation`)).status, 202)
  await service.context.scheduler.runNow('email-sending')
  const again = sink.messages.filter((m) => to(m) === GUEST.email)
  assert.equal(again.length, 2)
  assert.equal(again[1].subject, portuguese.subject)
  assert.equal(calendarEvent(again[1]).summary, 'Passeio de veleiro ao pôr do sol no Tejo (Alfama & Tejo Tours)')
})

test('a booking guided in a language the instance does not read in (the sail’s French) is written in the default; a Spanish request, its decline and a cancellation in Spanish', async (t) => {
  const { service, sink } = await withMail(t, demoCatalog())
  const french = await guestBooking(service, { ...SAIL_PARTY, language: 'fr' }, GUEST)
  assert.equal(french.booking.language, 'fr')
  await deliverEmails(service)
  const confirmed = mailTo(sink, GUEST.email)
  assert.equal(confirmed.subject, `Booking confirmed: Tagus Sunset Sail · Fri, 5 Jun 2026, 17:30 (Lisbon time) · ${french.booking.code}`)
  assert.ok(confirmed.text!.includes('Guided in: French\nMeeting point: Doca de Santo Amaro marina, pontoon B'), confirmed.text)
  assert.equal(calendarEvent(confirmed).summary, 'Tagus Sunset Sail (Alfama & Tejo Tours)')

  const key = await keyOf(service, 'staff')
  const asking = { ...GUEST, name: 'Lucía Pérez', email: 'lucia@example.es' }
  const request = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2, language: 'es' }, asking)
  await deliverEmails(service)
  assert.equal((await key.post(`/bookings/${request.booking.code}/decline`, { reason: 'The boat is under repair.' })).status, 200)
  const leaving = { ...GUEST, name: 'Javier Ruiz', email: 'javier@example.es' }
  const cancelled = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2, language: 'es' }, leaving)
  assert.equal((await cancelled.client.delete('/booking', { headers: cancelled.session.headers })).status, 200)
  await deliverEmails(service)

  const lucia = sink.messages.filter((m) => to(m) === asking.email)
  const fado = `Noche de fado en Alfama · ${lisbonMoment(FADO_TUE, 'es-ES')} (hora de Europa occidental) · ${request.booking.code}`
  assert.deepEqual(lucia.map((m) => m.subject), [`Solicitud recibida: ${fado}`, `Solicitud rechazada: ${fado}`])
  assert.ok(lucia[0].text!.startsWith('Hola, Lucía Pérez:\n\nGracias: Alfama & Tejo Tours ha recibido tu solicitud'), lucia[0].text)
  assert.ok(lucia[0].text!.includes('Punto de encuentro: Museo del Fado, entrada principal, Largo do Chafariz de Dentro 1'), lucia[0].text)
  assert.ok(lucia[0].text!.includes('\n\nUna vez confirmada, cancelar cuesta:\n\n'), lucia[0].text)
  assert.ok(lucia[1].text!.includes('Lo sentimos: Alfama & Tejo Tours no ha podido aceptar tu solicitud. The boat is under repair. No hay nada que pagar.'), lucia[1].text)

  const javier = sink.messages.filter((m) => to(m) === leaving.email)
  assert.deepEqual(javier.map((m) => m.subject!.split(':')[0]), ['Reserva confirmada', 'Reserva cancelada'])
  assert.ok(javier[1].text!.includes('Tu reserva está cancelada, como pediste.\n\nNo se aplica ningún cargo por cancelación.'), javier[1].text)
  const cancelling = calendarEvent(javier[1])
  assert.equal(cancelling.summary, 'Paseo a pie por Alfama y Mouraria (Alfama & Tejo Tours)')
  assert.equal(cancelling.status, 'CANCELLED')
})

test('a change of the language alone is news to the guest, told in the new language; a tour guided in one language names none', async (t) => {
  const catalog = demoCatalog()
  const workshop = lisbonOf(catalog).tours.find((tour: { id: string }) => tour.id === 'pastel-de-nata-workshop')
  workshop.languages = ['pt']
  const { service, sink } = await withMail(t, catalog)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2, language: 'pt' }, GUEST)
  await deliverEmails(service)
  assert.ok(mailTo(sink, GUEST.email).text!.includes('Idioma do guia: português\n'))

  const changed = await (await keyOf(service, 'staff')).patch(`/bookings/${booking.code}`, { language: 'es' })
  assert.equal(changed.status, 200, changed.text)
  await deliverEmails(service)
  const told = sink.messages.filter((m) => to(m) === GUEST.email)
  assert.equal(told.length, 2, told.map((m) => m.subject).join('\n'))
  assert.ok(told[1].subject!.startsWith('Reserva modificada: Paseo a pie por Alfama y Mouraria · '), told[1].subject)
  assert.ok(told[1].text!.includes('Idioma del guía: español\n'), told[1].text)
  assert.ok(String(calendarEvent(told[1]).description).includes('Idioma del guía: español\n'))

  const other = { ...GUEST, email: 'rui@example.pt' }
  await guestBooking(service, { tour_id: 'pastel-de-nata-workshop', start: '2026-06-04T09:00:00Z', party: 1 }, other)
  await deliverEmails(service)
  const workshopMail = mailTo(sink, other.email)
  assert.ok(workshopMail.subject!.startsWith('Pedido recebido: '), `guided in Portuguese only, it is booked in Portuguese: ${workshopMail.subject}`)
  assert.ok(!workshopMail.text!.includes('Idioma do guia'), workshopMail.text)
})

test('the reminder and a cancelled departure are written in the booking’s language too', async (t) => {
  const { service, sink } = await withMail(t, demoCatalog())
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2, language: 'pt' }, GUEST)
  await deliverEmails(service)
  service.clock.set('2026-06-04T09:00:00Z')
  await service.context.scheduler.runNow('email-reminders')
  assert.equal((await (await keyOf(service, 'staff')).post(`/departures/alfama-walk/${ALFAMA_FRI}/cancel`, { reason: 'aviso de tempestade' })).status, 200)
  await deliverEmails(service)

  const [confirmed, reminder, cancelled] = sink.messages.filter((m) => to(m) === GUEST.email)
  const about = `Passeio a pé por Alfama e Mouraria · ${lisbonMoment(ALFAMA_FRI, 'pt-PT')} (Hora da Europa Ocidental) · ${booking.code}`
  assert.deepEqual([confirmed, reminder, cancelled].map((m) => m?.subject), [`Reserva confirmada: ${about}`, `Até breve: ${about}`, `Saída cancelada: ${about}`])
  assert.ok(reminder.text!.includes('Lembramos a sua reserva com Alfama & Tejo Tours. Por favor, esteja em Miradouro de Santa Luzia, Largo Santa Luzia, 1100-487 Lisboa, Portugal alguns minutos antes do início.'), reminder.text)
  assert.ok(spaced(reminder.text!).includes('Cancelar custa:\n\nAté ao início: 100% do total, 38,00 €\n'), reminder.text)
  assert.ok(cancelled.text!.includes('Lamentamos: Alfama & Tejo Tours cancelou esta saída (aviso de tempestade) e, com ela, a sua reserva. Não se aplica nenhuma taxa.'), cancelled.text)
  assert.equal(calendarEvent(cancelled).summary, 'Passeio a pé por Alfama e Mouraria (Alfama & Tejo Tours)')
})
