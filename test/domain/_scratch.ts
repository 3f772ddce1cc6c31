import { Temporal } from 'temporal-polyfill'
for (const tz of Intl.supportedValuesOf('timeZone')) {
  let t = Temporal.Instant.from('2025-12-31T00:00:00Z').toZonedDateTimeISO(tz)
  for (let k = 0; k < 10; k++) {
    const n = t.getTimeZoneTransition('next'); if (!n || n.year > 2027) break
    const before = n.subtract({ nanoseconds: 1 })
    if (before.toPlainDate().toString() !== n.toPlainDate().toString() && n.offsetNanoseconds > before.offsetNanoseconds)
      console.log('gap crosses date', tz, before.toString(), n.toString())
    if (n.offsetNanoseconds < before.offsetNanoseconds && n.toPlainDate().toString() !== before.toPlainDate().toString())
      console.log('fallback crosses date', tz, before.toString(), n.toString())
    t = n
  }
}
