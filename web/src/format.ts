import type { PageWords } from './words/en.ts'

/**
 * Money, dates, times and durations in the page's locale (Intl), with times read in the
 * operator's zone: a departure happens where the tour is, not where the guest sits. The
 * page's own words in that language travel with it, as `words`.
 */
export class Formats {
  readonly guestZone: string
  private readonly money: Intl.NumberFormat
  private readonly minorDigits: number

  constructor(readonly locale: string, readonly operatorZone: string, currency: string, readonly words: PageWords) {
    this.guestZone = new Intl.DateTimeFormat().resolvedOptions().timeZone
    this.money = new Intl.NumberFormat(locale, { style: 'currency', currency })
    this.minorDigits = this.money.resolvedOptions().maximumFractionDigits ?? 2
  }

  /** Integer minor units (cents) as the guest writes money, e.g. "€55.00" or "55,00 €". */
  price(minor: number): string {
    return this.money.format(minor / 10 ** this.minorDigits)
  }

  /** A date chip's two lines, e.g. "Tue" and "24 Nov": every chip breaks in the same place, whatever the locale. */
  dayLines(date: string): [weekday: string, dayAndMonth: string] {
    const noon = calendarNoon(date)
    return [
      new Intl.DateTimeFormat(this.locale, { weekday: 'short', timeZone: 'UTC' }).format(noon),
      new Intl.DateTimeFormat(this.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(noon),
    ]
  }

  /** A YYYY-MM-DD calendar date in full, e.g. "Tuesday, 24 November 2026". */
  day(date: string): string {
    return new Intl.DateTimeFormat(this.locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
      .format(calendarNoon(date))
  }

  /** The clock time of an instant in the operator's zone, e.g. "20:30" or "8:30 PM". */
  time(instant: string): string {
    return new Intl.DateTimeFormat(this.locale, { hour: 'numeric', minute: '2-digit', timeZone: this.operatorZone }).format(new Date(instant))
  }

  /**
   * Date and time of an instant in the operator's zone, e.g. "Tuesday, 24 November 2026 at
   * 20:30 Lisbon time": the zone is named (as zoneName names it) when it is not the guest's,
   * in the place the guest's locale puts a zone.
   */
  dateTime(instant: string): string {
    const named = this.zonesDiffer()
    const parts = new Intl.DateTimeFormat(this.locale, {
      weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit',
      timeZone: this.operatorZone, timeZoneName: named ? 'short' : undefined,
    }).formatToParts(new Date(instant))
    return parts.map((part) => part.type === 'timeZoneName' ? this.zoneName(this.operatorZone) : part.value).join('')
  }

  /** The calendar date (YYYY-MM-DD) of an instant in the operator's zone. */
  operatorDate(instant: string): string {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: this.operatorZone }).format(new Date(instant))
  }

  /** 135 as "2 hours, 15 minutes" in the guest's language. */
  duration(minutes: number): string {
    const unit = (value: number, name: 'hour' | 'minute') => new Intl.NumberFormat(this.locale, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value)
    const hours = Math.floor(minutes / 60)
    const rest = minutes % 60
    const parts = [hours > 0 ? unit(hours, 'hour') : '', rest > 0 || hours === 0 ? unit(rest, 'minute') : ''].filter(Boolean)
    return this.list(parts)
  }

  /** ISO language codes as names in the page's language, e.g. "English, Portuguese and Spanish". */
  languages(codes: string[]): string {
    const names = new Intl.DisplayNames([this.locale], { type: 'language' })
    return this.list(codes.map((code) => names.of(code) ?? code))
  }

  /** The instance's payment methods ("cash", "card") in the page's language, as a list. */
  paymentMethods(methods: readonly string[]): string {
    return this.list(methods.map((method) => this.words.paymentMethod(method)))
  }

  percent(value: number): string {
    return new Intl.NumberFormat(this.locale, { style: 'percent' }).format(value / 100)
  }

  list(items: string[]): string {
    return new Intl.ListFormat(this.locale, { style: 'long', type: 'conjunction' }).format(items)
  }

  /**
   * True when the guest's clock shows other times than the operator's: the zones' offsets
   * differ now or in half a year (so London and Lisbon count as one, New York does not).
   */
  zonesDiffer(): boolean {
    return this.offsets(this.guestZone) !== this.offsets(this.operatorZone)
  }

  private offsets(zone: string): string {
    const format = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
    const at = (time: number) => format.formatToParts(time).find((p) => p.type === 'timeZoneName')?.value
    const now = Date.now()
    return `${at(now)} ${at(now + 182 * 24 * 3600 * 1000)}`
  }

  /**
   * The one name the page gives a zone, from its IANA id: "Europe/Lisbon" is "Lisbon time",
   * "America/New_York" "New York time". Intl's names differ by style, season and locale
   * ("GMT+0", "WET", "Western European Standard Time" for the same zone), which confused guests.
   */
  zoneName(zone: string): string {
    const city = zone.includes('/') && !zone.startsWith('Etc/') ? zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ') : null
    return city ? this.words.zoneTime(city) : zone
  }
}

/** Noon UTC of a YYYY-MM-DD date: formatted in UTC, it is that calendar day everywhere. */
function calendarNoon(date: string): number {
  const [y, m, d] = date.split('-').map(Number)
  return Date.UTC(y, m - 1, d, 12)
}
