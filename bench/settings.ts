/** How long and how hard `npm run bench` drives each endpoint; `--quick` only proves the bench still runs. */
export interface DatabaseSize {
  tours: number
  bookings: number
}

export interface BenchSettings {
  mode: 'full' | 'quick'
  connections: number
  durationSeconds: number
  warmupSeconds: number
  /** Starts on a fresh, empty database whose time to first answer is the cold start. */
  coldStarts: number
  growth: {
    small: DatabaseSize
    large: DatabaseSize
    connections: number
    durationSeconds: number
    warmupSeconds: number
    /** Small and large are measured in turn this many times; the report takes the median. */
    rounds: number
  }
  /** Issue 13's operator reads, on their own database. */
  operator: {
    size: DatabaseSize
    connections: number
    durationSeconds: number
    warmupSeconds: number
    /** Guests (one booking each) on the departure whose manifest is read. */
    manifestGuests: number
    /** Bookings the CSV export holds (at least). */
    exportBookings: number
  }
}

export const FULL: BenchSettings = {
  mode: 'full',
  connections: 50,
  durationSeconds: 10,
  warmupSeconds: 3,
  coldStarts: 3,
  growth: {
    small: { tours: 10, bookings: 1_000 },
    large: { tours: 10_000, bookings: 1_000_000 },
    connections: 10,
    durationSeconds: 5,
    warmupSeconds: 2,
    rounds: 3,
  },
  // A large operator: a million bookings over a hundred tours (the growth run's 10,000 tours
  // are a stress test of the catalog, not a business whose departures one list covers).
  operator: {
    size: { tours: 100, bookings: 1_000_000 },
    connections: 10,
    durationSeconds: 5,
    warmupSeconds: 2,
    manifestGuests: 200,
    exportBookings: 100_000,
  },
}

export const QUICK: BenchSettings = {
  mode: 'quick',
  connections: 10,
  durationSeconds: 0.3,
  warmupSeconds: 0.1,
  coldStarts: 1,
  growth: {
    small: { tours: 10, bookings: 1_000 },
    large: { tours: 100, bookings: 10_000 },
    connections: 5,
    durationSeconds: 0.3,
    warmupSeconds: 0.1,
    rounds: 1,
  },
  operator: {
    size: { tours: 10, bookings: 5_000 },
    connections: 5,
    durationSeconds: 0.3,
    warmupSeconds: 0.1,
    manifestGuests: 20,
    exportBookings: 1_000,
  },
}
