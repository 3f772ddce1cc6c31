import { useOffice } from '../session.tsx'
import { addDays, isDate } from '../dates.ts'
import { Link } from '../router.tsx'
import { LoadState, useLoad } from '../load.tsx'
import type { Departure } from '../types.ts'
import { DepartureBadges, Fullness } from './departure-status.tsx'

export function departurePath(d: { tour_id: string, start: string }): string {
  return `departures/${encodeURIComponent(d.tour_id)}/${encodeURIComponent(d.start)}`
}

/**
 * A day's departures in the operator's zone (today at '' and 'today', another at
 * 'today/<date>'), with how full each is and its state; each opens its manifest.
 */
export function TodayView({ path }: { path: string }) {
  const { api, formats, tourTitle } = useOffice()
  const today = formats.operatorDate(new Date().toISOString())
  const asked = path.startsWith('today/') ? path.slice('today/'.length) : ''
  const date = isDate(asked) ? asked : today
  const [state, reload] = useLoad(
    () => api.get<{ departures: Departure[] }>(`/departures?from=${date}&to=${date}&limit=200`).then((b) => b.departures),
    [date],
  )
  const dayPath = (day: string) => (day === today ? '' : `today/${day}`)
  return (
    <>
      <h1 tabIndex={-1}>{date === today ? 'Today' : formats.day(date)} {date === today && <span class="subtitle">{formats.day(today)}</span>}</h1>
      <nav class="day-nav" aria-label="Other days">
        <Link to={dayPath(addDays(date, -1))}>← Previous day</Link>
        {date !== today && <Link to="">Today</Link>}
        <Link to={dayPath(addDays(date, 1))}>Next day →</Link>
      </nav>
      <LoadState state={state} what="the day's departures" retry={reload} />
      {state.kind === 'ready' && (state.data.length === 0
        ? <p>{date === today ? 'No departures today.' : 'No departures this day.'}</p>
        : (
          <ul class="cards departures">
            {state.data.map((d) => {
              const id = `fullness-${d.tour_id}-${d.time.replace(':', '')}`
              return (
                <li class="card departure" key={`${d.tour_id} ${d.start}`} data-cancelled={d.cancelled || undefined}>
                  <p class="time">{formats.time(d.start)}</p>
                  <div>
                    <h2><Link to={departurePath(d)}>{tourTitle(d.tour_id)}</Link></h2>
                    <Fullness departure={d} id={id} />
                    <DepartureBadges departure={d} />
                    {d.note && <p class="note"><strong>Note:</strong> {d.note}</p>}
                  </div>
                </li>
              )
            })}
          </ul>
        ))}
    </>
  )
}
