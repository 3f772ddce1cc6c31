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
  /** Issue 15: guests' reads while a manager edits the catalog, and an edit's way to another node. */
  catalogEdits: {
    /** The manager's pace, one edit at a time (PUT /tours/{id} on the node measured). */
    editsPerSecond: number
    connections: number
    durationSeconds: number
    warmupSeconds: number
    /** The instance served by two nodes, on which each edit is timed from its commit to the other node's answer. */
    largeTours: number
    /** Edits timed on it, one after the other. */
    timedEdits: number
    /** Before the edits, each node streams the whole tour list to this many connections for this long. */
    listConnections: number
    listSeconds: number
  }
  /** Issue 16: what the outbox adds to the checkout cycle, and deliveries to a local receiver. */
  webhooks: {
    /** Each version of the service runs the checkout cycle this many times, in turn (connections as the main run's). */
    cycleRounds: number
    durationSeconds: number
    warmupSeconds: number
    /** Endpoints subscribed to every event in the fan-out variant. */
    fanOutEndpoints: number
    /** Events made (one guest checkout each) and then delivered to one receiver. */
    deliveredEvents: number
  }
  /** Issue 27: the write cycles with price categories and on the commit before them, side by side. */
  unitsCost: {
    /** Each version runs both cycles this many times, in turn (connections as the main run's). */
    rounds: number
    durationSeconds: number
    warmupSeconds: number
  }
  /** Issue 28: a reseller's 90-day polls on the work tree and on the commit before kept OCTo answers, with the ceiling, side by side. */
  octoPolling: {
    /** Each round measures the ceiling, then both polls on each version in turn (connections as the main run's). */
    rounds: number
    durationSeconds: number
    warmupSeconds: number
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
  catalogEdits: {
    editsPerSecond: 10,
    connections: 50,
    durationSeconds: 10,
    warmupSeconds: 3,
    largeTours: 10_000,
    timedEdits: 5,
    listConnections: 5,
    listSeconds: 3,
  },
  // Short runs, many times over: another process's burst of work then spoils one run of one version, which the median drops.
  webhooks: {
    cycleRounds: 5,
    durationSeconds: 6,
    warmupSeconds: 2,
    fanOutEndpoints: 3,
    deliveredEvents: 5_000,
  },
  unitsCost: {
    rounds: 5,
    durationSeconds: 6,
    warmupSeconds: 2,
  },
  octoPolling: {
    rounds: 3,
    durationSeconds: 6,
    warmupSeconds: 2,
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
  catalogEdits: {
    editsPerSecond: 10,
    connections: 10,
    durationSeconds: 0.5,
    warmupSeconds: 0.1,
    largeTours: 100,
    timedEdits: 1,
    listConnections: 2,
    listSeconds: 0.3,
  },
  // A write cycle on a busy machine can take longer than the reads' 0.3 s, and then a run counts no request at all.
  webhooks: {
    cycleRounds: 1,
    durationSeconds: 1,
    warmupSeconds: 0.2,
    fanOutEndpoints: 3,
    deliveredEvents: 200,
  },
  unitsCost: {
    rounds: 1,
    durationSeconds: 0.5,
    warmupSeconds: 0.1,
  },
  octoPolling: {
    rounds: 1,
    durationSeconds: 0.5,
    warmupSeconds: 0.1,
  },
}
