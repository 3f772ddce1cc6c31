/**
 * The whole guest flow as an integrator writes it with the generated client, and nothing
 * else: no cast, no untyped value, no hand-written type. A guest books on one device (the
 * laptop), opens the manage link on another (the tablet), finds the booking by code and
 * email on a third (the phone), sees the fee there and cancels. Each client is one device
 * with its own session. test/client/guest-client.test.ts compiles this file under
 * `tsc --strict` and runs it against the real service.
 */
import type { GuestClient, GuestSchemas } from '../../client/index.ts'

/** What each step answered, for the test to check. */
export interface GuestFlowResult {
  index: GuestSchemas['IndexDocument']
  tour: GuestSchemas['Tour']
  slot: GuestSchemas['Slot']
  laptopSession: GuestSchemas['SessionGrant']
  held: GuestSchemas['Booking']
  read: GuestSchemas['Booking']
  checkedOut: GuestSchemas['Booking']
  openedByLink: GuestSchemas['Booking']
  phoneSession: GuestSchemas['SessionGrant']
  lookedUp: GuestSchemas['Booking']
  readOnPhone: GuestSchemas['Booking']
  cancelled: GuestSchemas['Booking']
}

/** The answer's data, or an error naming the call, its status and the problem the service answered. */
function dataOf<T>(call: string, answer: { data?: T, error?: unknown, response: Response }): T {
  if (answer.data === undefined) throw new Error(`${call}: ${answer.response.status} ${JSON.stringify(answer.error)}`)
  return answer.data
}

export const GUEST = { name: 'Ana Silva', email: 'Ana.Silva@example.pt', phone: '912 345 678' }

export async function runGuestFlow(laptop: GuestClient, tablet: GuestClient, phone: GuestClient): Promise<GuestFlowResult> {
  // index: the instance, and a session set as the sid cookie (the client keeps it).
  const index = dataOf('GET /', await laptop.GET('/'))

  // tours: the first tour, then its full record.
  const list = dataOf('GET /tours', await laptop.GET('/tours'))
  const first = list.tours[0]
  if (first === undefined) throw new Error('the catalog has no tour')
  const tour = dataOf('GET /tours/{id}', await laptop.GET('/tours/{id}', { params: { path: { id: first.id } } }))
  const party = Math.min(Math.max(2, tour.party.min), tour.party.max)

  // availability: the latest departure the party can book over the next 14 days.
  const availability = dataOf('GET /availability', await laptop.GET('/availability', { params: { query: { tour: tour.id, party, days: 14 } } }))
  const slot = availability.slots.filter((s) => s.bookable === true).at(-1)
  if (slot === undefined) throw new Error(`${tour.id} has no departure for ${party} in 14 days`)

  // session: the CSRF token of the session the index made (the cookie names it).
  const laptopSession = dataOf('POST /session', await laptop.POST('/session'))
  const csrf = laptopSession.csrf_token

  // hold: the party's seats, and each per-person add-on for everyone.
  const addons: Record<string, number> = {}
  for (const addon of tour.addons) if (addon.per === 'person') addons[addon.id] = Math.min(party, addon.max_quantity)
  const held = dataOf('POST /booking', await laptop.POST('/booking', {
    params: { header: { 'X-CSRF-Token': csrf, 'Idempotency-Key': `hold-${laptopSession.session}` } },
    body: { tour_id: tour.id, start: slot.start, party, addons },
  }))

  // read: the session's booking.
  const read = dataOf('GET /booking', await laptop.GET('/booking'))

  // checkout: the guest's contact details turn the hold into a booking with a code.
  const checkedOut = dataOf('POST /checkout', await laptop.POST('/checkout', {
    params: { header: { 'Idempotency-Key': `checkout-${held.id}` } },
    body: GUEST,
  }))
  if (checkedOut.code === null || checkedOut.manage_url === null) throw new Error('checkout answered no booking code or manage link')

  // lookup by the manage link, on the tablet: the token is the link's fragment.
  const tabletSession = dataOf('POST /session (tablet)', await tablet.POST('/session'))
  const openedByLink = dataOf('POST /booking/lookup {token}', await tablet.POST('/booking/lookup', {
    params: { header: { 'X-CSRF-Token': tabletSession.csrf_token } },
    body: { token: new URL(checkedOut.manage_url).hash.slice(1) },
  }))

  // lookup by code and email, on the phone.
  dataOf('GET / (phone)', await phone.GET('/'))
  const phoneSession = dataOf('POST /session (phone)', await phone.POST('/session'))
  const lookedUp = dataOf('POST /booking/lookup {code, email}', await phone.POST('/booking/lookup', {
    params: { header: { 'X-CSRF-Token': phoneSession.csrf_token } },
    body: { code: checkedOut.code, email: GUEST.email.toUpperCase() },
  }))

  // cancel, on the phone, once the guest has seen what it costs now.
  const readOnPhone = dataOf('GET /booking (phone)', await phone.GET('/booking'))
  if (!readOnPhone.cancellation_now.allowed) throw new Error(`booking ${readOnPhone.code} can no longer be cancelled`)
  const cancelled = dataOf('DELETE /booking (phone)', await phone.DELETE('/booking', {
    params: { header: { 'X-CSRF-Token': phoneSession.csrf_token } },
  }))

  return { index, tour, slot, laptopSession, held, read, checkedOut, openedByLink, phoneSession, lookedUp, readOnPhone, cancelled }
}
