import { useState } from 'preact/hooks'
import { useOffice } from '../session.tsx'
import { ActionForm, DaySteps, fieldsOf, type Submit } from './booking-forms.tsx'
import { DeparturePicker, FieldError, invalid, useTours, type FormError } from './booking-shared.tsx'
import type { BookingDetail, TourInfo } from './booking-types.ts'
import { countsPerUnit, mixOf, startingCounts, UnitFields } from './unit-fields.tsx'

/**
 * Moving to another departure of this tour or another: the departures of a day with their free
 * seats. A tour that has not the booking's units asks who the party is in its own (a count per
 * unit, or the party of its one unit); one that has them keeps the booking's counts, re-priced.
 */
export function MoveForm({ booking, submit, onClose }: { booking: BookingDetail, submit: Submit, onClose: () => void }) {
  const { formats } = useOffice()
  const tours = useTours()
  const [tourId, setTourId] = useState(booking.tour.id)
  const [date, setDate] = useState(formats.operatorDate(booking.start))
  const [start, setStart] = useState<string | null>(null)
  const [counts, setCounts] = useState<Record<string, number> | null>(null)
  const [error, setError] = useState<FormError | null>(null)
  const fields = fieldsOf(error)
  const tour = tours?.find((t) => t.id === tourId)
  const otherTour = tourId !== booking.tour.id
  const newUnits = otherTour && tour && booking.units.some((line) => !tour.units.some((unit) => unit.id === line.id)) ? tour : null
  const unitCounts = newUnits ? counts ?? startingCounts(newUnits, booking.party) : null
  const quantities = unitCounts ?? Object.fromEntries(booking.units.map((line) => [line.id, line.quantity]))
  const seats = tour ? mixOf(tour, quantities).seats : booking.seats
  const dropped = otherTour && tour ? booking.addons.filter((a) => !tour.addons.some((x) => x.id === a.id)) : []
  const options = tours && tours.some((t) => t.id === booking.tour.id) ? tours : [{ id: booking.tour.id, title: booking.tour.title } as TourInfo, ...(tours ?? [])]
  const changeDay = (day: string) => {
    setDate(day)
    setStart(null)
  }

  return (
    <ActionForm id="move" title="Move to another departure" submitLabel="Move booking" busyLabel="Moving…" onClose={onClose} error={error}
      onSubmit={async () => {
        if (!start) {
          const e = { text: 'Choose the departure to move to.', fields: { start: 'Choose a departure' } }
          setError(e)
          return e
        }
        const body: Record<string, unknown> = { start }
        if (unitCounts) body.units = unitCounts
        if (otherTour) {
          body.tour_id = tourId
          if (tour) {
            body.addons = Object.fromEntries(booking.addons.flatMap((a) => {
              const offered = tour.addons.find((x) => x.id === a.id)
              return offered ? [[a.id, Math.min(a.quantity, offered.max_quantity)]] : []
            }))
          }
        }
        const refused = await submit(body)
        setError(refused)
        return refused
      }}>
      <p class="hint">Now: {booking.tour.title}, {formats.dateTime(booking.start)}; {booking.seats} {booking.seats === 1 ? 'seat' : 'seats'} needed.</p>
      <div class="form-row">
        <div>
          <label for="move-tour">Tour</label>
          <select id="move-tour" value={tourId} {...invalid('move-tour-error', fields.tour_id)} onChange={(event) => {
            setTourId(event.currentTarget.value)
            setCounts(null)
            setStart(null)
          }}>
            {options.map((t) => <option key={t.id} value={t.id}>{t.title}</option>)}
          </select>
          <FieldError id="move-tour-error" text={fields.tour_id} />
        </div>
        <div>
          <label for="move-date">Day</label>
          <input id="move-date" type="date" value={date} required onInput={(event) => changeDay(event.currentTarget.value)} />
        </div>
      </div>
      <DaySteps date={date} onChange={changeDay} />
      {/^\d{4}-\d{2}-\d{2}$/.test(date) && (
        <DeparturePicker name="move-start" tourId={tourId} date={date} seats={seats > 0 ? seats : 1} value={start} onChange={setStart}
          current={{ tour_id: booking.tour.id, start: booking.start }} error={fields.start} />
      )}
      {newUnits && countsPerUnit(newUnits) && unitCounts && (
        <>
          <p class="note">{newUnits.title} has other units than this booking: say who the party is there.</p>
          <UnitFields prefix="move" tour={newUnits} values={unitCounts} onChange={setCounts} errors={fields} />
        </>
      )}
      {newUnits && !countsPerUnit(newUnits) && (
        <p class="note">On {newUnits.title} the party is {booking.party} × {newUnits.units[0].name}.</p>
      )}
      {dropped.length > 0 && (
        <p class="note">{formats.list(dropped.map((a) => a.name))} {dropped.length === 1 ? 'is' : 'are'} not offered on {tour?.title}: the move drops {dropped.length === 1 ? 'it' : 'them'}.</p>
      )}
    </ActionForm>
  )
}
