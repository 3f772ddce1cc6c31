import type { Departure } from '../types.ts'

/** Guests on the departure's live bookings: what the minimum to run counts (holds aside). */
export const liveGuests = (d: Departure) => d.seats.requested + d.seats.confirmed + d.seats.completed + d.seats.no_show

/** The badges that say what state a departure is in: cancelled, closed, guaranteed or at risk, extra, off the schedule. */
export function DepartureBadges({ departure: d }: { departure: Departure }) {
  const badges: [tone: string, text: string][] = []
  if (d.cancelled) badges.push(['danger', 'Cancelled'])
  else if (d.closed) badges.push(['muted', 'Closed to new bookings'])
  if (d.min_participants !== null && !d.cancelled) {
    badges.push(d.guaranteed ? ['good', 'Guaranteed to run'] : ['warn', `At risk: ${liveGuests(d)} of ${d.min_participants} needed`])
  }
  if (d.extra) badges.push(['muted', 'Extra departure'])
  if (d.orphaned) badges.push(['warn', 'No longer on the schedule'])
  if (badges.length === 0) return null
  return <ul class="badges">{badges.map(([tone, text]) => <li class="badge" data-tone={tone} key={text}>{text}</li>)}</ul>
}

/** How full it is, in words and as a meter. */
export function Fullness({ departure: d, id }: { departure: Departure, id: string }) {
  const booked = liveGuests(d)
  return (
    <div class="fullness">
      <p id={id}>
        {booked} of {d.capacity} booked{d.seats.requested > 0 && `, ${d.seats.requested} awaiting confirmation`}
        {d.seats.held > 0 && `, ${d.seats.held} on hold`} · {d.seats.free} free
      </p>
      <meter min={0} max={d.capacity} value={Math.min(booked + d.seats.held, d.capacity)} aria-labelledby={id} />
    </div>
  )
}
