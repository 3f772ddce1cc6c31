import { useRouter } from '../router.tsx'
import { useOffice } from '../session.tsx'
import type { Departure } from '../types.ts'
import { monthWeeks, noonOf } from '../dates.ts'
import { DepartureBadges, Fullness, liveGuests } from './departure-status.tsx'
import { departurePath } from './today.tsx'

/** Opens a departure's panel; null for those who may not change departures (they follow it to its manifest). */
export type SlotOpener = ((d: Departure) => void) | null

/** One departure: its tour and instant (the same instant however its offset is written). */
export const departureKey = (d: { tour_id: string, start: string }) => `${d.tour_id}|${Date.parse(d.start)}`

/** The id of a departure's control in the calendar, for putting focus back on it. */
export const slotId = (key: string) => `slot-${key.replace('|', '-')}`

/** Departures by tour and day, and by day, keeping their order (start, then tour). */
function grouped(departures: Departure[]): { byTourDay: Map<string, Departure[]>, byDay: Map<string, Departure[]> } {
  const byTourDay = new Map<string, Departure[]>()
  const byDay = new Map<string, Departure[]>()
  for (const d of departures) {
    const pair = `${d.tour_id}|${d.date}`
    byTourDay.set(pair, [...byTourDay.get(pair) ?? [], d])
    byDay.set(d.date, [...byDay.get(d.date) ?? [], d])
  }
  return { byTourDay, byDay }
}

/**
 * The departure's time as the control that opens it: a button that opens its panel, or a link
 * to its manifest. Its name says the tour and the day too, which a cell's neighbours only imply.
 */
function SlotControl({ departure: d, opener }: { departure: Departure, opener: SlotOpener }) {
  const { formats, tourTitle } = useOffice()
  const router = useRouter()
  const time = formats.time(d.start)
  const name = `${tourTitle(d.tour_id)}, ${formats.day(d.date)}, ${time}`
  const id = slotId(departureKey(d))
  if (opener) {
    return <button type="button" class="slot-time" id={id} aria-haspopup="dialog" aria-label={name} onClick={() => opener(d)}>{time}</button>
  }
  const to = departurePath(d)
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    router.navigate(to)
  }
  return <a class="slot-time" id={id} href={router.href(to)} aria-label={`${name}: manifest`} onClick={follow}>{time}</a>
}

/** A departure's state in a word or two, for the small cells of a month. */
function ShortStates({ departure: d }: { departure: Departure }) {
  const states: [tone: string, text: string][] = []
  if (d.cancelled) states.push(['danger', 'Cancelled'])
  else if (d.closed) states.push(['muted', 'Closed'])
  if (d.min_participants !== null && !d.cancelled) states.push(d.guaranteed ? ['good', 'Guaranteed'] : ['warn', 'At risk'])
  if (d.extra) states.push(['muted', 'Extra'])
  if (d.orphaned) states.push(['warn', 'Off schedule'])
  if (d.note) states.push(['muted', 'Note'])
  if (states.length === 0) return null
  return <span class="slot-states">{states.map(([tone, text]) => <span class="badge" data-tone={tone} key={text}>{text}</span>)}</span>
}

const stateOf = (d: Departure) => d.cancelled ? 'cancelled' : d.closed ? 'closed' : undefined

/** A departure in full: time, how full, its state and note (a week's cell, a day of the list). */
function Slot({ departure: d, opener }: { departure: Departure, opener: SlotOpener }) {
  const key = slotId(departureKey(d))
  return (
    <li class="slot" data-state={stateOf(d)}>
      <SlotControl departure={d} opener={opener} />
      <Fullness departure={d} id={`${key}-fullness`} />
      <DepartureBadges departure={d} />
      {d.note && <p class="note slot-note"><strong>Note:</strong> {d.note}</p>}
    </li>
  )
}

/** A departure in a line or two: time, seats booked of capacity, tour, state (a month's cell). */
function CompactSlot({ departure: d, opener, showTour }: { departure: Departure, opener: SlotOpener, showTour: boolean }) {
  const { tourTitle } = useOffice()
  const booked = liveGuests(d)
  return (
    <li class="slot compact" data-state={stateOf(d)}>
      <span class="slot-line">
        <SlotControl departure={d} opener={opener} />
        <span class="slot-seats">{booked} of {d.capacity}</span>
      </span>
      {showTour && <span class="slot-tour" aria-hidden="true">{tourTitle(d.tour_id)}</span>}
      <meter min={0} max={d.capacity} value={Math.min(booked + d.seats.held, d.capacity)} aria-hidden="true" />
      <ShortStates departure={d} />
    </li>
  )
}

function DayHeading({ date, today }: { date: string, today: string }) {
  const { formats } = useOffice()
  const [weekday, dayMonth] = formats.dayLines(date)
  return (
    <th scope="col" aria-current={date === today ? 'date' : undefined}>
      <span class="calendar-sr">{formats.day(date)}</span>
      <span aria-hidden="true"><span class="calendar-weekday">{weekday}</span> {dayMonth}</span>
    </th>
  )
}

/** A week side by side: a row per tour, a column per day. */
export function WeekTable({ days, tourIds, departures, opener, today, label }: {
  days: string[], tourIds: string[], departures: Departure[], opener: SlotOpener, today: string, label: string,
}) {
  const { tourTitle } = useOffice()
  const { byTourDay } = grouped(departures)
  return (
    <div class="calendar-scroll">
      <table class="calendar-week">
        <caption class="calendar-sr">Departures per tour, week of {label}</caption>
        <thead>
          <tr><th scope="col" class="calendar-corner">Tour</th>{days.map((date) => <DayHeading date={date} today={today} key={date} />)}</tr>
        </thead>
        <tbody>
          {tourIds.map((id) => (
            <tr key={id}>
              <th scope="row">{tourTitle(id)}</th>
              {days.map((date) => {
                const list = byTourDay.get(`${id}|${date}`) ?? []
                return (
                  <td key={date} data-today={date === today || undefined}>
                    {list.length > 0 && <ul class="slots">{list.map((d) => <Slot departure={d} opener={opener} key={departureKey(d)} />)}</ul>}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A month as a wall calendar: a row per week, a column per weekday, each day's departures in brief. */
export function MonthGrid({ anchor, departures, opener, today, showTour, label }: {
  anchor: string, departures: Departure[], opener: SlotOpener, today: string, showTour: boolean, label: string,
}) {
  const { formats } = useOffice()
  const { byDay } = grouped(departures)
  const weeks = monthWeeks(anchor)
  // Weekday names from a week known to start on a Monday (1 June 2026).
  const weekdays = Array.from({ length: 7 }, (_, i) => noonOf(`2026-06-0${i + 1}`))
  const long = new Intl.DateTimeFormat(formats.locale, { weekday: 'long', timeZone: 'UTC' })
  const short = new Intl.DateTimeFormat(formats.locale, { weekday: 'short', timeZone: 'UTC' })
  return (
    <div class="calendar-scroll">
      <table class="calendar-month">
        <caption class="calendar-sr">Departures in {label}</caption>
        <thead>
          <tr>{weekdays.map((noon) => <th scope="col" key={noon}><span class="calendar-sr">{long.format(noon)}</span><span aria-hidden="true">{short.format(noon)}</span></th>)}</tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find((d) => d !== null)}>
              {week.map((date, i) => {
                if (date === null) return <td key={`empty-${i}`} class="calendar-outside" />
                const list = byDay.get(date) ?? []
                return (
                  <td key={date} aria-current={date === today ? 'date' : undefined}>
                    <p class="calendar-daynum"><span class="calendar-sr">{formats.day(date)}</span><span aria-hidden="true">{Number(date.slice(8))}</span></p>
                    {list.length > 0 && <ul class="slots">{list.map((d) => <CompactSlot departure={d} opener={opener} showTour={showTour} key={departureKey(d)} />)}</ul>}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The days one under the other (a phone, or any narrow screen): each day's departures as cards. */
export function DepartureList({ days, departures, opener, today, showTour }: {
  days: string[], departures: Departure[], opener: SlotOpener, today: string, showTour: boolean,
}) {
  const { formats, tourTitle } = useOffice()
  const { byDay } = grouped(departures)
  return (
    <div class="calendar-days">
      {days.filter((date) => byDay.has(date)).map((date) => (
        <section key={date} class="calendar-day" aria-labelledby={`day-${date}`}>
          <h2 id={`day-${date}`}>{formats.day(date)}{date === today && <span class="badge calendar-today">Today</span>}</h2>
          <ul class="cards">
            {byDay.get(date)!.map((d) => {
              const key = slotId(departureKey(d))
              return (
                <li class="card departure calendar-card" key={key} data-state={stateOf(d)} data-cancelled={d.cancelled || undefined}>
                  <p class="time"><SlotControl departure={d} opener={opener} /></p>
                  <div>
                    {showTour && <h3>{tourTitle(d.tour_id)}</h3>}
                    <Fullness departure={d} id={`${key}-fullness`} />
                    <DepartureBadges departure={d} />
                    {d.note && <p class="note"><strong>Note:</strong> {d.note}</p>}
                  </div>
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </div>
  )
}
