import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { calendarFile, foldContentLines } from '../../src/notify/calendar-file.ts'

// The .ics of every email is folded by src/notify/calendar-file.ts instead of ical-generator's own
// toString(), which was the largest cost of the email projection: the guest must receive the same
// bytes, and those bytes must be RFC 5545 content lines (3.1: at most 75 octets, folded by CRLF
// and a space, never inside a UTF-8 sequence).

/** A calendar as src/notify/email-calendar.ts makes one, from any texts. */
function calendarOf(texts: { name: string, summary: string, location: string, description: string, guest: string, url: string | null }, cancelled: boolean) {
  const method = cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST
  const calendar = ical({ prodId: { company: 'tourdesk', product: 'tourdesk', language: 'EN' }, name: texts.name, method })
  calendar.createEvent({
    id: 'd3b07384-d9a0-4c9b-8f4e-1f2a3b4c5d6e@tours.example',
    sequence: 3,
    start: new Date('2026-06-05T08:30:00Z'),
    end: new Date('2026-06-05T10:30:00Z'),
    stamp: new Date('2026-06-01T09:00:00Z'),
    summary: `${texts.summary} (${texts.name})`,
    location: texts.location,
    description: texts.description,
    url: texts.url,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: texts.name, email: 'bookings@tours.example' },
    attendees: [{ email: 'ana@example.pt', name: texts.guest || null, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED, rsvp: false }],
  })
  return calendar
}

const LONG_LATIN = 'Passeio de barco ao pôr do sol no Tejo, com partida às 18h30 da Doca de Santo Amaro — ½ hora de atraso tolerada; crianças até 3 anos ao colo'
const WIDE = '東京の夜景クルーズ、レインボーブリッジとお台場を巡る二時間の旅。集合場所は日の出桟橋です。'
const EMOJI = '🚤 Sunset sail 🌅 with drinks 🍹, music 🎶 and the crew 👩‍✈️👨‍✈️ — bring a jacket 🧥 for the way back '.repeat(2)

const unfold = (text: string) => text.replace(/\r\n /g, '')

test('the calendar file is byte for byte what ical-generator writes, for plain, accented, wide, emoji and broken texts', () => {
  const samples = [
    { name: 'Lisbon Tours', summary: 'Alfama walk', location: 'Largo do Chafariz de Dentro', description: 'Booking LX-7Q2M\nParty: 2', guest: 'Ana Silva', url: null },
    { name: 'Passeios de Lisboa, Lda.', summary: LONG_LATIN, location: LONG_LATIN, description: `${LONG_LATIN}\n${LONG_LATIN}`, guest: 'João Gonçalves', url: 'https://tours.example/lisbon/manage/eyJhbGciOiJIUzI1NiJ9.eyJib29raW5nIjoiZDNiMDczODQifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw' },
    { name: '東京ツアーズ', summary: WIDE, location: WIDE, description: WIDE.repeat(3), guest: '山田 太郎', url: null },
    { name: 'Sail 🚤', summary: EMOJI, location: EMOJI, description: EMOJI, guest: '👩‍✈️', url: null },
    // Lone surrogates, which a JSON body can carry, are written as U+FFFD and counted as its 3 octets.
    { name: 'x', summary: `${'a'.repeat(40)}\ud800${'b'.repeat(40)}\udc00${'c'.repeat(40)}\ud83d`, location: '\udbff'.repeat(60), description: 'é'.repeat(100), guest: '', url: null },
  ]
  for (const sample of samples) {
    for (const cancelled of [false, true]) {
      const calendar = calendarOf(sample, cancelled)
      assert.equal(calendarFile(calendar), calendar.toString(), sample.summary)
    }
  }
})

test('any texts: the calendar file equals ical-generator’s, and every line is an RFC 5545 content line', () => {
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', ' ', ',', ';', '\\', '\n', 'é', '€', '中', '😀', '\ud800', '\udc00'), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 300 })
  fc.assert(fc.property(fc.record({ name: text, summary: text, location: text, description: text, guest: text, url: fc.constant(null) }), fc.boolean(), (texts, cancelled) => {
    fc.pre(texts.name.trim() !== '')
    const calendar = calendarOf(texts, cancelled)
    const file = calendarFile(calendar)
    assert.equal(file, calendar.toString())
    for (const line of file.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, line)
  }), { numRuns: 300 })
})

test('folding keeps at most 75 octets a line, breaks only between characters, and unfolds to the line it was', () => {
  for (const line of [`DESCRIPTION:${'é'.repeat(200)}`, `SUMMARY:${'中'.repeat(100)}`, `SUMMARY:${'😀'.repeat(80)}`, `LOCATION:${'a'.repeat(73)}é${'b'.repeat(100)}`]) {
    const folded = foldContentLines(line)
    const physical = folded.split('\r\n')
    assert.ok(physical.length > 1, line)
    physical.forEach((piece, index) => {
      assert.ok(Buffer.byteLength(piece) <= 75, piece)
      if (index > 0) assert.equal(piece[0], ' ')
      // A piece that began or ended inside a character would not survive UTF-8 on its own.
      assert.equal(Buffer.from(piece, 'utf8').toString('utf8'), piece)
      assert.ok(!/[\ud800-\udbff]$/.test(piece) && !/^ ?[\udc00-\udfff]/.test(piece), 'no surrogate pair is split')
    })
    assert.equal(unfold(folded), line)
  }
  assert.equal(foldContentLines(`SUMMARY:${'a'.repeat(66)}`), `SUMMARY:${'a'.repeat(66)}`, 'a line of 74 octets stays whole')
  assert.equal(foldContentLines(`SUMMARY:${'a'.repeat(67)}`), `SUMMARY:${'a'.repeat(66)}\r\n a`, 'the 75th octet goes on')
})
