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
}
