import { useOffice } from '../session.tsx'
import { BookingDetailView } from './booking-detail.tsx'
import { BookingList } from './booking-list.tsx'
import { NewBooking } from './booking-new.tsx'
import { NotFoundView } from './not-found.tsx'
import './bookings.css'

/** Bookings (issue 17): the list (`bookings`), a new staff booking (`bookings/new`) and one booking (`bookings/<code>`). */
export function BookingsView({ path }: { path: string }) {
  const { may } = useOffice()
  if (path === 'bookings') return <BookingList />
  if (path === 'bookings/new') return may('bookings.change') ? <NewBooking /> : <NotFoundView />
  const segment = path.slice('bookings/'.length)
  let code = segment
  try {
    code = decodeURIComponent(segment)
  } catch {
    // An address typed by hand: looked up as it is, and not found.
  }
  return <BookingDetailView key={code} code={code} />
}
