import type { ICalCalendar } from 'ical-generator'

/** RFC 5545, 3.1: a content line holds at most 75 octets; ical-generator keeps 74 before a fold and a space and 74 after. */
const OCTETS_PER_LINE = 74

/** The UTF-8 length of the character (or surrogate pair) starting at `at`, and how many code units it spans. */
function characterAt(line: string, at: number): [octets: number, units: number] {
  const code = line.charCodeAt(at)
  if (code < 0x80) return [1, 1]
  if (code < 0x800) return [2, 1]
  // A high surrogate takes the next unit with it, as ical-generator's fold does; a lone one is
  // written as U+FFFD (3 octets), which is what Buffer.byteLength counts for it.
  if (code >= 0xd800 && code <= 0xdbff) return [Buffer.byteLength(line.slice(at, at + 2)), Math.min(2, line.length - at)]
  return [3, 1]
}

/**
 * Folds each CRLF-separated line of `text` (RFC 5545, 3.1) exactly as ical-generator 10's
 * calendar.toString() does (`foldLines` in its src/tools.ts), byte for byte: a line breaks
 * before the character that would take it past 74 octets, never inside a UTF-8 sequence.
 * ical-generator builds a TextEncoder for every character to count its octets, which made the
 * .ics the largest single cost of the email projection (bench/results/2026-11-27-checkout.md);
 * its fix needs Node 22. test/email/calendar-file.test.ts holds the two outputs equal.
 */
export function foldContentLines(text: string): string {
  return text.split('\r\n').map((line) => {
    if (line.length * 3 <= OCTETS_PER_LINE) return line
    const pieces: string[] = []
    let pieceStart = 0
    let octets = 0
    for (let at = 0; at < line.length;) {
      const [size, units] = characterAt(line, at)
      octets += size
      if (octets > OCTETS_PER_LINE) {
        pieces.push(line.slice(pieceStart, at))
        pieceStart = at
        octets = size
      }
      at += units
    }
    pieces.push(line.slice(pieceStart))
    return pieces.join('\r\n ')
  }).join('\r\n')
}

/**
 * The calendar's text as its toString() writes it, for the properties src/notify/email-calendar.ts
 * sets (product, method, name, events), folded once by foldContentLines.
 */
export function calendarFile(calendar: ICalCalendar): string {
  const method = calendar.method()
  const name = calendar.name()
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-${calendar.prodId()}`,
    ...(method ? [`METHOD:${method}`] : []),
    ...(name ? [`NAME:${name}`, `X-WR-CALNAME:${name}`] : []),
  ]
  const events = calendar.events().map((event) => event.toString()).join('')
  return foldContentLines(`${lines.join('\r\n')}\r\n${events}END:VCALENDAR`)
}
