import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { ParsedMail } from 'mailparser'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'
import { FADO_MON, FADO_TUE, guestBooking, keyOf } from '../admin/bookings-fixtures.ts'

// What the emails say (issue 25, item 9): the add-ons and cancellation terms to the guest, the
// guest's contact to the operator, a calendar file a calendar accepts as an iTIP request, a
// From address mail servers take, and a decline link that knows the request was answered.

const OPERATOR = 'ops@tours.example'
const GUEST = { name: 'Ana Silva', email: 'ana@example.pt', phone: '+351 912 345 678' }
/** Fri 5 Jun 2026, 09:30 in Lisbon: four days after the test clock's Mon 1 Jun, 09:00. */
const ALFAMA_FRI = '2026-06-05T08:30:00Z'

async function withMail(t: TestContext, settings: Record<string, unknown>, publicUrl?: string): Promise<{ service: TestService, sink: MailSink }> {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = demoCatalog()
  Object.assign(catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon'), settings)
  const service = await build(t, { catalog, email: { smtpUrl: sink.url, ...publicUrl ? { publicUrl } : {} } })
  return { service, sink }
}

async function deliverEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0].address
const from = (mail: ParsedMail) => mail.from!.value[0].address
const mailTo = (sink: MailSink, address: string, subject: string) => {
  const mail = sink.messages.find((m) => to(m) === address && m.subject!.startsWith(subject))
  assert.ok(mail, `${subject} to ${address}; got ${sink.messages.map((m) => `${to(m)}: ${m.subject}`).join(', ')}`)
  return mail
}
const calendarText = (mail: ParsedMail) => mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))!.content.toString('utf8')

test('an instant booking with add-ons: the guest reads the add-ons and the cancellation terms with their moments and fees; the operator reads the guest’s email and phone', async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [OPERATOR] })
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2, addons: { 'ginjinha-tasting': 2, 'illustrated-map': 1 } }, GUEST)
  await deliverEmails(service)

  const confirmed = mailTo(sink, GUEST.email, 'Booking confirmed')
  const text = confirmed.text!
  assert.ok(text.includes('Add-on: Ginjinha tasting × 2 (€7.00)'), text)
  assert.ok(text.includes('Add-on: Illustrated Alfama map × 1 (€6.00)'), text)
  const half = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(Math.floor((booking.price.total * 50 + 50) / 100) / 100)
  const full = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(booking.price.total / 100)
  assert.ok(text.includes('Cancelling costs:\n\nUntil Wed, 3 Jun 2026, 09:30 (Lisbon time): free of charge\n'
    + `Until Thu, 4 Jun 2026, 09:30 (Lisbon time): 50% of the total, ${half}\n`
    + `Until the start: 100% of the total, ${full}\n`
    + `Not turning up: 100% of the total, ${full}`), text)
  assert.ok(String(confirmed.html).includes('Ginjinha tasting × 2 (€7.00)'), 'the HTML says the same')

  const alert = mailTo(sink, OPERATOR, 'New booking')
  assert.ok(alert.text!.includes(`Guest: ${GUEST.name}\nEmail: ${GUEST.email}\nPhone: +351912345678`), alert.text)
  assert.ok(alert.text!.includes('Add-on: Ginjinha tasting × 2 (€7.00)'), alert.text)
})

test('a request lists the terms that apply once it is confirmed, from the moment it is made: tiers already past are left out', async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [OPERATOR] })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, GUEST)
  await deliverEmails(service)
  const received = mailTo(sink, GUEST.email, 'Request received').text!
  assert.ok(received.includes('Once it is confirmed, cancelling costs:'), received)
  assert.ok(!received.includes('free of charge'), `the free tier ended before the request was made:\n${received}`)
  assert.ok(mailTo(sink, OPERATOR, 'New request').text!.includes(`Email: ${GUEST.email}`))
})

test('the calendar file is an iTIP request with the instance as ORGANIZER, the From of its email, and the guest as an attendee who needs not answer', async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [OPERATOR] })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2 }, GUEST)
  await deliverEmails(service)
  const confirmed = mailTo(sink, GUEST.email, 'Booking confirmed')
  const content = calendarText(confirmed)
  assert.match(content, /^METHOD:REQUEST$/m)
  const [event] = Object.values(ical.sync.parseICS(content)).filter((c) => c?.type === 'VEVENT') as VEvent[]
  const organizer = event.organizer as unknown as { val: string, params: { CN: string } }
  assert.equal(organizer.val.toLowerCase(), `mailto:${from(confirmed)}`, 'ORGANIZER is the address the email comes from')
  assert.equal(organizer.params.CN, 'Alfama & Tejo Tours')
  const attendee = event.attendee as unknown as { val: string, params: Record<string, unknown> }
  assert.equal(attendee.val.toLowerCase(), `mailto:${GUEST.email}`)
  assert.deepEqual([attendee.params.PARTSTAT, attendee.params.RSVP], ['ACCEPTED', false])
})

test('the From address: never no-reply@ an IP address; the operator’s address when the service is reached by IP, no-reply@ the public host when it has a name, email_from when set', async (t) => {
  await t.test('reached at 127.0.0.1 (TOURDESK_PUBLIC_URL unset): the first operator email', async (t) => {
    const { service, sink } = await withMail(t, { operator_emails: [OPERATOR, 'boss@tours.example'] })
    await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2 }, GUEST)
    await deliverEmails(service)
    const confirmed = mailTo(sink, GUEST.email, 'Booking confirmed')
    assert.equal(from(confirmed), OPERATOR)
    assert.equal(confirmed.from!.value[0].name, 'Alfama & Tejo Tours')
  })
  await t.test('reached at 127.0.0.1 with no operator emails: no-reply@localhost', async (t) => {
    const { service, sink } = await withMail(t, {})
    await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2 }, GUEST)
    await deliverEmails(service)
    assert.equal(from(mailTo(sink, GUEST.email, 'Booking confirmed')), 'no-reply@localhost')
  })
  await t.test('TOURDESK_PUBLIC_URL https://book.example.com: no-reply@book.example.com', async (t) => {
    const { service, sink } = await withMail(t, { operator_emails: [OPERATOR] }, 'https://book.example.com')
    await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2 }, GUEST)
    await deliverEmails(service)
    assert.equal(from(mailTo(sink, GUEST.email, 'Booking confirmed')), 'no-reply@book.example.com')
  })
  await t.test('email_from set: it, in the calendar file too', async (t) => {
    const { service, sink } = await withMail(t, { operator_emails: [OPERATOR], email_from: 'Alfama Bookings <bookings@alfama.example>' })
    await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 2 }, GUEST)
    await deliverEmails(service)
    const confirmed = mailTo(sink, GUEST.email, 'Booking confirmed')
    assert.equal(from(confirmed), 'bookings@alfama.example')
    assert.match(calendarText(confirmed), /^ORGANIZER;CN="?Alfama Bookings"?:mailto:bookings@alfama.example$/m)
  })
})

test('a decline link opened after the request was confirmed says it is no longer needed and offers no button', async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [OPERATOR] })
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, GUEST)
  await deliverEmails(service)
  const alert = mailTo(sink, OPERATOR, 'New request')
  const [declineLink] = [...alert.text!.matchAll(/Decline it: (\S+)/g)].map((m) => m[1])
  assert.equal((await (await keyOf(service, 'staff')).post(`/bookings/${booking.code}/confirm`)).status, 200)

  const page = await fetch(declineLink)
  assert.equal(page.status, 200)
  const html = await page.text()
  assert.ok(html.includes(`Request ${booking.code} is already confirmed`), html)
  assert.ok(html.includes('no longer needed'), html)
  assert.ok(!html.includes('<form') && !html.includes('<button'), 'nothing to click')
  assert.ok(html.includes(`href="/admin/lisbon/bookings/${booking.code}"`), 'a way to the booking')
})

/** The demo's Alfama walk with adult, child, infant-on-a-lap and family units (docs/units.md). */
function withUnits(catalog: ReturnType<typeof demoCatalog>) {
  const lisbon = catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon')
  const walk = lisbon.tours.find((tour: { id: string }) => tour.id === 'alfama-walk')
  walk.units = [
    { id: 'adult', type: 'adult', name: 'Adult', price: walk.price },
    { id: 'child', type: 'child', name: 'Child', price: 950, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
    { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_age: 3, accompanied_by: ['adult'] },
    { id: 'family', type: 'family', name: 'Family', price: 5000, seats: 4, pax: 4 },
  ]
  return catalog
}

test('a booking of units: the confirmation, the operator’s alert and the calendar file say who the party is and what each unit costs', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = withUnits(demoCatalog())
  catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon').operator_emails = [OPERATOR]
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 4, units: { adult: 2, child: 1, infant: 1 } }, GUEST)
  await deliverEmails(service)

  const confirmed = mailTo(sink, GUEST.email, 'Booking confirmed')
  const lines = 'Party: 2 Adult, 1 Child, 1 Infant\nTicket: Adult × 2 (€38.00)\nTicket: Child × 1 (€9.50)\nTicket: Infant × 1 (free)\n'
  assert.ok(confirmed.text!.includes(lines), confirmed.text)
  const html = String(confirmed.html)
  for (const [label, value] of [['Party', '2 Adult, 1 Child, 1 Infant'], ['Ticket', 'Adult × 2 (€38.00)'], ['Ticket', 'Child × 1 (€9.50)'], ['Ticket', 'Infant × 1 (free)']]) {
    assert.ok(html.includes(`<th align="left" style="padding-right:12px">${label}</th><td>${value}</td>`), `${label}: ${value} in the HTML:\n${html}`)
  }
  const [event] = Object.values(ical.sync.parseICS(calendarText(confirmed))).filter((c) => c?.type === 'VEVENT') as VEvent[]
  assert.ok(String(event.description).includes(lines), String(event.description))
  assert.ok(mailTo(sink, OPERATOR, 'New booking').text!.includes(lines), 'the operator reads the same lines')
})

test('a family ticket counts its people; a booking of the implicit person unit still says "Party: 2", with no unit lines', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = withUnits(demoCatalog())
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_FRI, party: 4, units: { family: 1 } }, GUEST)
  const other = { ...GUEST, email: 'rui@example.pt' }
  await guestBooking(service, { tour_id: 'belem-bike', start: ALFAMA_FRI, party: 2 }, other)
  await deliverEmails(service)

  const family = mailTo(sink, GUEST.email, 'Booking confirmed').text!
  assert.ok(family.includes('Party: 1 Family (4 people)\nTicket: Family × 1 (€50.00)\n'), family)
  const person = mailTo(sink, other.email, 'Booking confirmed')
  assert.ok(person.text!.includes('Party: 2\n'), person.text)
  assert.ok(!person.text!.includes('Ticket:') && !person.text!.includes('Person'), person.text)
  assert.ok(!calendarText(person).includes('Person'), 'nor does its calendar file')
})

test('a request of units: the operator’s new-request email and the page of its confirm link name the units', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = demoCatalog()
  const lisbon = catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon')
  lisbon.operator_emails = [OPERATOR]
  const fado = lisbon.tours.find((tour: { id: string }) => tour.id === 'fado-night')
  fado.units = [{ id: 'adult', type: 'adult', name: 'Adult', price: fado.price }, { id: 'child', type: 'child', name: 'Child', price: 2500, accompanied_by: ['adult'] }]
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 3, units: { adult: 2, child: 1 } }, GUEST)
  await deliverEmails(service)

  const alert = mailTo(sink, OPERATOR, 'New request').text!
  assert.ok(alert.includes('Party: 2 Adult, 1 Child\nTicket: Adult × 2 (€110.00)\nTicket: Child × 1 (€25.00)\n'), alert)
  const [confirmLink] = [...alert.matchAll(/Confirm it: (\S+)/g)].map((m) => m[1])
  const html = await (await fetch(confirmLink)).text()
  assert.ok(html.includes(`${GUEST.name} asks for 2 Adult, 1 Child on`), html)
})

test('a departure at risk counts people, not seats: two adults and an infant on a lap are 3 of its minimum', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = demoCatalog()
  const lisbon = catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon')
  lisbon.operator_emails = [OPERATOR]
  const fado = lisbon.tours.find((tour: { id: string }) => tour.id === 'fado-night')
  Object.assign(fado, {
    min_participants: 4, min_participants_deadline_hours: 6,
    units: [{ id: 'adult', type: 'adult', name: 'Adult', price: fado.price }, { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, accompanied_by: ['adult'] }],
  })
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 3, units: { adult: 2, infant: 1 } }, GUEST)
  service.clock.set('2026-06-01T13:30:00Z')
  await service.context.scheduler.runNow('departure-deadlines')
  await deliverEmails(service)
  const atRisk = sink.messages.filter((m) => to(m) === OPERATOR && m.subject!.startsWith('At risk'))
  assert.equal(atRisk.length, 1, sink.messages.map((m) => m.subject).join('\n'))
  assert.match(atRisk[0].subject!, / has 3 of 4$/)
  assert.ok(atRisk[0].text!.includes('has 3 guests, below its minimum of 4'), atRisk[0].text)
})
