/** The operator API's records as the back office reads them (src/schemas/admin). */
export interface Seats { held: number, requested: number, confirmed: number, completed: number, no_show: number, free: number }

export interface Departure {
  tour_id: string
  start: string
  end: string
  date: string
  time: string
  capacity: number
  seats: Seats
  closed: boolean
  cancelled: boolean
  note: string | null
  extra: boolean
  orphaned: boolean
  min_participants: number | null
  guaranteed: boolean
  version: number
}

export interface Addon { id: string, name: string, quantity: number, amount: number }

export interface ManifestEntry {
  id: string
  code: string | null
  status: 'requested' | 'confirmed' | 'completed' | 'no_show'
  name: string | null
  email: string | null
  phone: string | null
  party: number
  addons: Addon[]
  due_on_arrival: number
  checked_in_at: string | null
  note: string | null
}

export interface DepartureManifest {
  departure: Departure
  manifest: ManifestEntry[]
  totals: { currency: string, guests: number, addons: Addon[], due_on_arrival: number }
}

export interface OperatorBooking {
  id: string
  code: string | null
  status: string
  tour: { id: string, title: string }
  start: string
  party: number
  addons: Addon[]
  price: { total: number, due_on_arrival: number }
  contact: { name: string, email: string, phone: string | null } | null
  internal_note: string | null
  created_at: string
}

export interface OperatorEvent {
  id: string
  type: string
  data: Record<string, unknown>
}
