import { useOffice } from '../session.tsx'
import { Link } from '../router.tsx'
import { LoadState, useLoad } from '../load.tsx'
import type { Departure } from '../types.ts'
import { DepartureBadges, Fullness } from './departure-status.tsx'

export function departurePath(d: { tour_id: string, start: string }): string {
  return `departures/${encodeURIComponent(d.tour_id)}/${encodeURIComponent(d.start)}`
}

/** Today's departures in the operator's zone, with how full each is and its state; each opens its manifest. */
export function TodayView() {
  const { api, formats, tourTitle } = useOffice()
  const today = formats.operatorDate(new Date().toISOString())
  const [state, reload] = useLoad(
    () => api.get<{ departures: Departure[] }>(`/departures?from=${today}&to=${today}&limit=200`).then((b) => b.departures),
    [today],
  )
  return (
    <>
      <h1 tabIndex={-1}>Today <span class="subtitle">{formats.day(today)}</span></h1>
      <LoadState state={state} what="today's departures" retry={reload} />
      {state.kind === 'ready' && (state.data.length === 0
        ? <p>No departures today.</p>
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
