import { useEffect, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import type { DepartureManifest, ManifestEntry } from '../types.ts'
import { describeUnits, onlyImplicitUnit } from '../../../src/domain/units.ts'
import { DepartureBadges, Fullness } from './departure-status.tsx'
import { languageName } from './translation-strings.ts'

const STATUS_NAMES: Record<ManifestEntry['status'], string> = {
  requested: 'Awaiting confirmation', confirmed: 'Expected', completed: 'Checked in', no_show: 'No-show',
}

interface Action { method: 'POST' | 'DELETE', path: string, label: string, done: string }

/** What a guide can do next for a guest: check in (from the departure's day) or mark no-show (once started), or undo either. */
function actionsOf(entry: ManifestEntry, started: boolean, checkInOpen: boolean): Action[] {
  const name = entry.name ?? entry.code ?? 'The guest'
  const booking = `/bookings/${encodeURIComponent(entry.code ?? entry.id)}`
  if (entry.status === 'confirmed') {
    return [
      ...(checkInOpen ? [{ method: 'POST' as const, path: `${booking}/check-in`, label: 'Check in', done: `${name} checked in.` }] : []),
      ...(started ? [{ method: 'POST' as const, path: `${booking}/no-show`, label: 'No-show', done: `${name} marked no-show.` }] : []),
    ]
  }
  if (entry.status === 'completed') return [{ method: 'DELETE', path: `${booking}/check-in`, label: 'Undo check-in', done: `Check-in of ${name} undone.` }]
  if (entry.status === 'no_show') return [{ method: 'DELETE', path: `${booking}/no-show`, label: 'Undo no-show', done: `No-show of ${name} undone.` }]
  return []
}

/** One departure's manifest: who is coming, how many, what they added, how to call them, what they pay on arrival. */
export function ManifestView({ path }: { path: string }) {
  const { api, formats, tourTitle, announce, may } = useOffice()
  const [, tourSegment = '', startSegment = ''] = path.split('/')
  const tourId = decodeURIComponent(tourSegment)
  const start = decodeURIComponent(startSegment)
  const apiPath = `/departures/${encodeURIComponent(tourId)}/${encodeURIComponent(start)}`
  const [state, reload] = useLoad(() => api.get<DepartureManifest>(apiPath), [apiPath])
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<{ key: string, text: string } | null>(null)
  const [focusKey, setFocusKey] = useState<string | null>(null)

  // After a tap, focus stays on that guest: on the button that now undoes it.
  useEffect(() => {
    if (focusKey && state.kind === 'ready') {
      document.getElementById(`act-${focusKey}`)?.focus()
      setFocusKey(null)
    }
  }, [state, focusKey])

  async function act(entry: ManifestEntry, action: Action): Promise<void> {
    const key = entry.code ?? entry.id
    setBusy(key)
    setError(null)
    try {
      await api.request(action.method, action.path)
      await reload()
      announce(action.done)
      setFocusKey(key)
    } catch (err) {
      const text = err instanceof Problem && err.code === 'invalid_transition'
        ? 'Someone else changed this booking just now; the list is up to date again.'
        : err instanceof Error ? err.message : String(err)
      setError({ key, text })
      await reload()
    } finally {
      setBusy(null)
    }
  }

  const title = tourTitle(tourId)
  const ready = state.kind === 'ready' ? state.data : null
  const started = ready !== null && Date.now() >= Date.parse(ready.departure.start)
  // The API refuses a check-in before the departure's day in the operator's zone (departure_not_today).
  const departureDay = ready === null ? '' : formats.operatorDate(ready.departure.start)
  const checkInOpen = ready !== null && formats.operatorDate(new Date().toISOString()) >= departureDay
  // Each guest's language is worth a line only when the group is guided in more than one (docs/languages.md).
  const splitByLanguage = ready !== null && ready.totals.languages.length > 1
  return (
    <>
      <p class="back no-print"><Link to="">← Today</Link></p>
      <h1 tabIndex={-1}>
        {title} <span class="subtitle">{Number.isNaN(Date.parse(start)) ? start : formats.dateTime(start)}</span>
      </h1>
      <LoadState state={state} what="the manifest" retry={reload} />
      {ready && (
        <>
          <section class="summary" aria-label="Departure">
            <Fullness departure={ready.departure} id="manifest-fullness" />
            <DepartureBadges departure={ready.departure} />
            <p>
              <strong>{ready.totals.guests}</strong> {ready.totals.guests === 1 ? 'guest' : 'guests'} expected
              {ready.totals.seats !== ready.totals.guests && ` on ${ready.totals.seats} ${ready.totals.seats === 1 ? 'seat' : 'seats'}`} · due on arrival{' '}
              <strong>{formats.price(ready.totals.due_on_arrival)}</strong>
            </p>
            {!onlyImplicitUnit(ready.totals.units) && <p>Units: {describeUnits(ready.totals.units)}</p>}
            {ready.totals.addons.length > 0 && <p>Add-ons: {formats.list(ready.totals.addons.map((a) => `${a.quantity} × ${a.name}`))}</p>}
            {splitByLanguage && <p>Guided in: {formats.list(ready.totals.languages.map((l) => `${l.guests} ${languageName(l.language)}`))}</p>}
            {ready.departure.note && <p class="note"><strong>Note:</strong> {ready.departure.note}</p>}
            {!checkInOpen && may('check-in') && <p class="hint">Check-in opens on the day of the departure, {formats.day(departureDay)}.</p>}
            <button type="button" class="button quiet no-print" onClick={() => print()}>Print</button>
          </section>
          {ready.manifest.length === 0 ? <p>Nobody has booked this departure.</p> : (
            <ul class="cards guests" aria-label="Guests">
              {ready.manifest.map((entry) => {
                const key = entry.code ?? entry.id
                const actions = may('check-in') ? actionsOf(entry, started, checkInOpen) : []
                return (
                  <li class="card guest" key={key} data-status={entry.status}>
                    <div class="guest-head">
                      <h2>{entry.name ?? 'Name erased'}</h2>
                      <span class="badge" data-tone={entry.status === 'completed' ? 'good' : entry.status === 'no_show' ? 'danger' : 'muted'}>
                        {STATUS_NAMES[entry.status]}
                      </span>
                    </div>
                    <p>
                      {entry.party} {entry.party === 1 ? 'guest' : 'guests'}
                      {/* The people by unit, and the seats they take (an infant on a lap takes none): docs/units.md. */}
                      {!onlyImplicitUnit(entry.units) && ` · ${describeUnits(entry.units)} · ${entry.seats} ${entry.seats === 1 ? 'seat' : 'seats'}`}{entry.code && <> · <span class="code">{entry.code}</span></>}
                      {entry.checked_in_at && <> · checked in at {formats.time(entry.checked_in_at)}</>}
                      {splitByLanguage && <> · {languageName(entry.language)}</>}
                    </p>
                    {entry.addons.length > 0 && <p>Add-ons: {formats.list(entry.addons.map((a) => `${a.quantity} × ${a.name}`))}</p>}
                    {entry.phone && <p><a class="tel" href={`tel:${entry.phone}`}>Call {entry.phone}</a></p>}
                    {entry.note && <p class="note"><strong>Note:</strong> {entry.note}</p>}
                    {entry.reseller
                      ? <p>Nothing to collect: <strong>paid via {entry.reseller.name ?? 'a reseller'}</strong></p>
                      : entry.status === 'no_show'
                      ? <p>Nothing due on arrival: not attended</p>
                      : <p>Due on arrival: <strong>{formats.price(entry.due_on_arrival)}</strong></p>}
                    {actions.length > 0 && (
                      <div class="actions no-print">
                        {actions.map((action, i) => (
                          <button type="button" key={action.label} id={i === 0 ? `act-${key}` : undefined} class={i === 0 ? 'button' : 'button quiet'}
                            disabled={busy === key} aria-label={`${action.label}: ${entry.name ?? key}`} onClick={() => act(entry, action)}>
                            {action.label}
                          </button>
                        ))}
                      </div>
                    )}
                    {error?.key === key && <p class="message" data-tone="error" role="alert">{error.text}</p>}
                  </li>
                )
              })}
            </ul>
          )}
        </>
      )}
    </>
  )
}
