import { useEffect, useRef, useState } from 'preact/hooks'
import type { AdminApi } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { useRouter } from '../router.tsx'
import { useOffice } from '../session.tsx'
import type { Departure } from '../types.ts'
import { AddDepartureDialog } from './calendar-add.tsx'
import { addDays, addMonths, anchorOf, daysOf, isDate, rangeLabel, type CalendarMode } from '../dates.ts'
import { DepartureList, MonthGrid, WeekTable, departureKey, slotId, type SlotOpener } from './calendar-grid.tsx'
import { DeparturePanel } from './calendar-panel.tsx'
import './calendar.css'

/** What the calendar shows, all of it in the address: calendar/<week|month>/<first day>[/<tour>]. */
export interface CalendarRoute {
  mode: CalendarMode
  /** The week's Monday or the month's first day. */
  anchor: string
  tour: string | null
}

export function calendarPath({ mode, anchor, tour }: CalendarRoute): string {
  return `calendar/${mode}/${anchor}${tour ? `/${encodeURIComponent(tour)}` : ''}`
}

/** The first day a mode shows for a date: a month's first; a week's Monday, or on a phone the date itself. */
type AnchorFor = (mode: CalendarMode, date: string) => string

/** 'calendar' is this week of every tour; the segments after it say otherwise. */
function routeOf(path: string, today: string, anchorFor: AnchorFor): CalendarRoute {
  const [, modeSegment, dateSegment, tourSegment] = path.split('/')
  const mode: CalendarMode = modeSegment === 'month' ? 'month' : 'week'
  const date = dateSegment && isDate(dateSegment) ? dateSegment : today
  return { mode, anchor: anchorFor(mode, date), tour: tourSegment ? decoded(tourSegment) : null }
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Every departure of a window (at most 62 days), following the list's pages. */
async function readDepartures(api: AdminApi, from: string, to: string, tour: string | null): Promise<Departure[]> {
  const departures: Departure[] = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ from, to, limit: '200' })
    if (tour) query.set('tour', tour)
    if (cursor) query.set('cursor', cursor)
    const page: { departures: Departure[], next_cursor: string | null } = await api.get(`/departures?${query}`)
    departures.push(...page.departures)
    cursor = page.next_cursor
  } while (cursor)
  return departures
}

export interface TourChoice { id: string, title: string }

/** The instance's bookable tours, in the catalog's order (the public list, as the top bar reads it). */
function useTours(prefix: string): TourChoice[] {
  const [tours, setTours] = useState<TourChoice[]>([])
  useEffect(() => {
    fetch(`/api/${prefix}/tours`, { headers: { accept: 'application/json' } })
      .then((r) => r.ok ? r.json() : { tours: [] })
      .then((body: { tours: TourChoice[] }) => setTours(body.tours.map((t) => ({ id: t.id, title: t.title }))))
      .catch(() => {})
  }, [prefix])
  return tours
}

/** True on a screen too narrow for a week side by side (phones, small tablets): the days become a list. */
function useNarrow(): boolean {
  const query = '(max-width: 55.99rem)'
  const [narrow, setNarrow] = useState(() => matchMedia(query).matches)
  useEffect(() => {
    const media = matchMedia(query)
    const changed = () => setNarrow(media.matches)
    media.addEventListener('change', changed)
    return () => media.removeEventListener('change', changed)
  }, [])
  return narrow
}

/** A link within the back office with attributes of its own (Link takes only a few). */
function PeriodLink({ to, children, current, label }: { to: string, children: string, current?: boolean, label?: string }) {
  const router = useRouter()
  const click = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    router.navigate(to)
  }
  return <a href={router.href(to)} class="calendar-link" aria-current={current ? 'page' : undefined} aria-label={label} onClick={click}>{children}</a>
}

/**
 * The calendar: a week or a month of departures per tour with how full each is. Staff who
 * may change departures open one to close or reopen it, change its capacity or note, or
 * cancel it, and add extra departures; everyone else follows a departure to its manifest.
 */
export function CalendarView({ path }: { path: string }) {
  const { api, me, formats, tourTitle, announce, may } = useOffice()
  const router = useRouter()
  const today = formats.operatorDate(new Date().toISOString())
  const narrow = useNarrow()
  // On a phone a week is the seven days from the day asked for (today by default), so a guide
  // on a Thursday does not scroll past three days gone; a wide screen keeps Monday to Sunday.
  const anchorFor: AnchorFor = (m, date) => (m === 'week' && narrow ? date : anchorOf(m, date))
  const route = routeOf(path, today, anchorFor)
  const { mode, anchor, tour } = route
  const days = daysOf(mode, anchor)
  const from = days[0]
  const to = days[days.length - 1]
  const [state, reload] = useLoad(() => readDepartures(api, from, to, tour), [from, to, tour])
  const tours = useTours(me.instance.prefix)
  const mayChange = may('departures.change')
  const [selected, setSelected] = useState<string | null>(null)
  const [adding, setAdding] = useState(false)
  const pendingFocus = useRef<string | null>(null)

  // After an extra departure is added, focus goes to it once the calendar shows it.
  useEffect(() => {
    const key = pendingFocus.current
    if (key === null || state.kind !== 'ready' || !state.data.some((d) => departureKey(d) === key)) return
    pendingFocus.current = null
    document.getElementById(slotId(key))?.focus()
  }, [state, narrow])

  const unit = mode === 'week' ? 'week' : 'month'
  const step = (n: number) => mode === 'week' ? addDays(anchor, 7 * n) : addMonths(anchor, n)
  const todayAnchor = anchorFor(mode, today)
  // From a month to the week of today when today is in it, else to its first week.
  const weekAnchor = mode === 'week' ? anchor : anchorFor('week', today >= from && today <= to ? today : anchor)
  const departures = state.kind === 'ready' ? state.data : []
  const open = selected === null ? undefined : departures.find((d) => departureKey(d) === selected)
  const opener: SlotOpener | null = mayChange ? (d) => setSelected(departureKey(d)) : null

  function closePanel(key: string): void {
    setSelected(null)
    requestAnimationFrame(() => document.getElementById(slotId(key))?.focus())
  }

  async function added(d: Departure): Promise<void> {
    setAdding(false)
    announce(`Extra departure added: ${tourTitle(d.tour_id)}, ${formats.day(d.date)} at ${formats.time(d.start)}.`)
    pendingFocus.current = departureKey(d)
    const shown = d.date >= from && d.date <= to && (tour === null || tour === d.tour_id)
    if (shown) await reload()
    else router.navigate(calendarPath({ mode, anchor: anchorFor(mode, d.date), tour: tour === null ? null : d.tour_id }))
  }

  // Tours in the catalog's order, then any other a departure names (archived, with bookings).
  const order = new Map(tours.map((t, i) => [t.id, i]))
  const tourIds = tour !== null ? [tour]
    : [...new Set(departures.map((d) => d.tour_id))].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b))
  const choices = tours.some((t) => t.id === tour) || tour === null ? tours : [...tours, { id: tour, title: tourTitle(tour) }]
  const label = rangeLabel(formats.locale, mode, anchor)

  return (
    <div class="calendar">
      <h1 tabIndex={-1}>
        Calendar <span class="subtitle">{mode === 'week' ? `Week of ${label}` : label}{tour !== null && ` · ${tourTitle(tour)}`}</span>
      </h1>
      <div class="calendar-bar">
        <nav class="calendar-period" aria-label="Period">
          <ul class="calendar-switch">
            <li><PeriodLink to={calendarPath({ ...route, mode: 'week', anchor: weekAnchor })} current={mode === 'week'}>Week</PeriodLink></li>
            <li><PeriodLink to={calendarPath({ ...route, mode: 'month', anchor: anchorOf('month', anchor) })} current={mode === 'month'}>Month</PeriodLink></li>
          </ul>
          <ul class="calendar-steps">
            <li><PeriodLink to={calendarPath({ ...route, anchor: step(-1) })} label={`Previous ${unit}`}>← Previous</PeriodLink></li>
            <li><PeriodLink to={calendarPath({ ...route, anchor: todayAnchor })} current={anchor === todayAnchor}>{`This ${unit}`}</PeriodLink></li>
            <li><PeriodLink to={calendarPath({ ...route, anchor: step(1) })} label={`Next ${unit}`}>Next →</PeriodLink></li>
          </ul>
        </nav>
        <form class="calendar-filter" onSubmit={(event) => {
          event.preventDefault()
          const chosen = String(new FormData(event.currentTarget).get('tour') ?? '')
          router.navigate(calendarPath({ ...route, tour: chosen || null }))
        }}>
          <label for="calendar-tour">Tour</label>
          <div class="calendar-filter-row">
            <select id="calendar-tour" name="tour" key={tour ?? ''}>
              <option value="" selected={tour === null}>All tours</option>
              {choices.map((t) => <option value={t.id} key={t.id} selected={t.id === tour}>{t.title}</option>)}
            </select>
            <button type="submit" class="button quiet">Show</button>
          </div>
        </form>
        {mayChange && <button type="button" class="button calendar-add" id="calendar-add" onClick={() => setAdding(true)}>Add an extra departure</button>}
      </div>
      <LoadState state={state} what="the departures" retry={reload} />
      {state.kind === 'ready' && (departures.length === 0
        ? <p class="calendar-empty">No departures {mode === 'week' ? 'this week' : 'this month'}{tour !== null && ` of ${tourTitle(tour)}`}.</p>
        : narrow || tourIds.length === 0 ? <DepartureList days={days} departures={departures} opener={opener} today={today} showTour={tour === null} />
          : mode === 'week' ? <WeekTable days={days} tourIds={tourIds} departures={departures} opener={opener} today={today} label={label} />
            : <MonthGrid anchor={anchor} departures={departures} opener={opener} today={today} showTour={tour === null} label={label} />)}
      {open && <DeparturePanel departure={open} reload={reload} onClose={() => closePanel(departureKey(open))} />}
      {adding && (
        <AddDepartureDialog tours={choices} defaultTour={tour ?? choices[0]?.id ?? ''} defaultDate={today >= from && today <= to ? today : from < today ? today : from}
          today={today} onAdded={added} onClose={() => {
            setAdding(false)
            requestAnimationFrame(() => document.getElementById('calendar-add')?.focus())
          }} />
      )}
    </div>
  )
}
