import { useEffect, useRef, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { bookingPath, STATUS_NAMES, StatusBadge, useTours } from './booking-shared.tsx'
import type { BookingRecord, BookingStatus } from './booking-types.ts'
import { guestsInWords } from './unit-fields.tsx'

interface Filters { q: string, from: string, to: string, tour: string, status: string, channel: string }
interface Page { bookings: BookingRecord[], next_cursor: string | null }

const PAGE_SIZE = 50
const LISTED_STATUSES: BookingStatus[] = ['requested', 'confirmed', 'completed', 'no_show', 'cancelled', 'declined', 'held']
/** Where a booking came from, by the API's channel names (src/schemas/admin/booking.ts, BOOKING_CHANNELS). */
const CHANNEL_NAMES: Record<BookingRecord['channel'], string> = { web: 'Booking page or API', staff: 'Taken by staff', octo: 'Resellers (OCTo)' }
const NO_FILTERS: Filters = { q: '', from: '', to: '', tour: '', status: '', channel: '' }

/** The filters last searched with, so coming back from a booking shows the same list. */
let remembered: Filters | null = null

function queryOf(filters: Filters, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) })
  for (const key of ['q', 'from', 'to', 'tour', 'status', 'channel'] as const) {
    const value = filters[key].trim()
    if (value) params.set(key, value)
  }
  if (cursor) params.set('cursor', cursor)
  return params.toString()
}

/** Bookings by departure, searched by code, name, email or phone and filtered by dates, tour and status; each opens its detail. */
export function BookingList() {
  const { api, formats, may, announce } = useOffice()
  const tours = useTours()
  const today = formats.operatorDate(new Date().toISOString())
  const [filters, setFilters] = useState<Filters>(() => remembered ?? { ...NO_FILTERS, from: today })
  const [draft, setDraft] = useState<Filters>(filters)
  const searched = useRef(false)
  const [state, reload] = useLoad(() => api.get<Page>(`/bookings?${queryOf(filters, null)}`), [JSON.stringify(filters)])
  const [more, setMore] = useState<{ bookings: BookingRecord[], next: string | null }>({ bookings: [], next: null })
  const [loadingMore, setLoadingMore] = useState(false)
  const [moreError, setMoreError] = useState<string | null>(null)
  const [focusIndex, setFocusIndex] = useState<number | null>(null)

  useEffect(() => {
    if (state.kind !== 'ready') return
    setMore({ bookings: [], next: state.data.next_cursor })
    if (searched.current) {
      searched.current = false
      const n = state.data.bookings.length
      announce(n === 0 ? 'No bookings match.' : `${n}${state.data.next_cursor ? ' or more' : ''} ${n === 1 ? 'booking' : 'bookings'} found.`)
    }
  }, [state])

  // After "Show more", focus goes to the first booking of the new page.
  useEffect(() => {
    if (focusIndex === null) return
    document.querySelectorAll<HTMLAnchorElement>('.booking-list .booking-link')[focusIndex]?.focus()
    setFocusIndex(null)
  }, [focusIndex, more])

  function search(next: Filters): void {
    remembered = next
    searched.current = true
    setFilters(next)
    if (JSON.stringify(next) === JSON.stringify(filters)) void reload()
  }

  async function showMore(): Promise<void> {
    if (!more.next || state.kind !== 'ready') return
    setLoadingMore(true)
    setMoreError(null)
    try {
      const page = await api.get<Page>(`/bookings?${queryOf(filters, more.next)}`)
      const shown = state.data.bookings.length + more.bookings.length
      setMore({ bookings: [...more.bookings, ...page.bookings], next: page.next_cursor })
      announce(`${page.bookings.length} more ${page.bookings.length === 1 ? 'booking' : 'bookings'} shown.`)
      setFocusIndex(shown)
    } catch (err) {
      setMoreError(err instanceof Error ? err.message : String(err))
    } finally {
      setLoadingMore(false)
    }
  }

  const set = (key: keyof Filters) => (event: Event) => { const value = (event.currentTarget as HTMLInputElement).value; setDraft((current) => ({ ...current, [key]: value })) }
  const shown = state.kind === 'ready' ? [...state.data.bookings, ...more.bookings] : []
  return (
    <>
      <div class="page-head bookings-head">
        <h1 tabIndex={-1}>Bookings</h1>
        {may('bookings.change') && <Link to="bookings/new" class="button">New booking</Link>}
      </div>
      <form class="booking-filters" role="search" aria-label="Find bookings" onSubmit={(event) => {
        event.preventDefault()
        search(draft)
      }}>
        <div class="filter-q">
          <label for="booking-q">Code, name, email or phone</label>
          <input id="booking-q" type="search" value={draft.q} onInput={set('q')} maxLength={200} autoComplete="off" />
        </div>
        <div>
          <label for="booking-from">Departures from</label>
          <input id="booking-from" type="date" value={draft.from} onInput={set('from')} />
        </div>
        <div>
          <label for="booking-to">to</label>
          <input id="booking-to" type="date" value={draft.to} onInput={set('to')} />
        </div>
        <div>
          <label for="booking-tour">Tour</label>
          <select id="booking-tour" value={draft.tour} onChange={set('tour')}>
            <option value="">Every tour</option>
            {(tours ?? []).map((t) => <option key={t.id} value={t.id}>{t.title}</option>)}
          </select>
        </div>
        <div>
          <label for="booking-status">Status</label>
          <select id="booking-status" value={draft.status} onChange={set('status')}>
            <option value="">Any but holds</option>
            {LISTED_STATUSES.map((s) => <option key={s} value={s}>{STATUS_NAMES[s]}</option>)}
          </select>
        </div>
        <div>
          <label for="booking-channel">Channel</label>
          <select id="booking-channel" value={draft.channel} onChange={set('channel')}>
            <option value="">Every channel</option>
            {Object.entries(CHANNEL_NAMES).map(([channel, name]) => <option key={channel} value={channel}>{name}</option>)}
          </select>
        </div>
        <div class="actions filter-actions">
          <button type="submit" class="button">Search</button>
          <button type="button" class="button quiet" onClick={() => {
            const cleared = NO_FILTERS
            setDraft(cleared)
            search(cleared)
          }}>Clear</button>
        </div>
      </form>
      <p class="hint">By departure, earliest first. Clear the dates to search every booking, past ones too.</p>
      <LoadState state={state} what="the bookings" retry={reload} />
      {state.kind === 'ready' && (shown.length === 0 ? <p>No bookings match.</p> : (
        <>
          <ul class="cards booking-list" aria-label="Bookings found">
            {shown.map((b) => (
              <li class="card booking-row" key={b.id}>
                <div class="booking-row-head">
                  <h2>
                    <Link to={bookingPath(b)} class="booking-link">
                      {b.contact?.name ?? 'Name erased'} <span class="code">{b.code ?? b.id}</span>
                    </Link>
                  </h2>
                  <StatusBadge status={b.status} />
                </div>
                <p><strong>{b.tour.title}</strong>, {formats.dateTime(b.start)}</p>
                <p>
                  {guestsInWords(b)} · {formats.price(b.price.total)}
                  {b.contact && <>{b.contact.email && ` · ${b.contact.email}`}{b.contact.phone && ` · ${b.contact.phone}`}</>}
                </p>
                {b.reseller && <p>Sold by {b.reseller.name ?? 'a reseller'}{b.reseller.reference && <> (ref. <span class="code">{b.reseller.reference}</span>)</>} · net {formats.price(b.reseller.net)}</p>}
                {b.quarantined && <p class="badge" data-tone="warn">Quarantined (spam decoy)</p>}
              </li>
            ))}
          </ul>
          {more.next && (
            <div class="actions list-more">
              <button type="button" class="button quiet" disabled={loadingMore} onClick={showMore}>{loadingMore ? 'Loading…' : 'Show more'}</button>
            </div>
          )}
          {moreError && <p class="message" data-tone="error" role="alert">Could not load more: {moreError}</p>}
        </>
      ))}
    </>
  )
}
