import { Temporal } from 'temporal-polyfill'
import { expandSchedule } from '../../src/domain/schedule.ts'
const all = ['mon','tue','wed','thu','fri','sat','sun']
const tour = (times: string[]) => ({ schedule: [{ from: '2026-01-01', until: '2027-12-31', weekdays: all, times }], blackouts: [], duration_minutes: 90 })
for (const [tz, d, times] of [
  ['Europe/Lisbon','2026-03-28',['00:30','01:30','02:30']],
  ['Europe/Lisbon','2026-10-24',['00:30','01:30','02:30']],
  ['America/New_York','2026-03-07',['01:30','02:30','03:30']],
  ['America/New_York','2026-10-31',['00:30','01:30','02:30']],
  ['Australia/Lord_Howe','2026-04-04',['01:15','01:45','02:15']],
  ['Australia/Lord_Howe','2026-10-03',['01:45','02:15','02:45']],
  ['Australia/Lord_Howe','2027-04-03',['01:45']],
  ['Australia/Lord_Howe','2027-10-02',['02:15']],
  ['Asia/Kolkata','2026-03-28',['09:30']],
] as [string,string,string[]][]) {
  for (const dep of expandSchedule(tour(times), tz, Temporal.PlainDate.from(d), 3))
    console.log(tz, dep.date, dep.time, dep.start.toString(), dep.start.toZonedDateTimeISO(tz).offset, dep.end.toString())
}
