import { setTimeout as sleep } from 'node:timers/promises'
import { ApiClient } from '../test/helpers/client.ts'

/** An event an acknowledged request promised: its change committed, so the feed must hold it. */
export interface PromisedEvent {
  type: string
  code: string
}

/** The operator API of one node, called with a manager's API key. */
export function operatorApi(origin: string, prefix: string, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number, body: any }> => {
    const answer = await fetch(`${origin}/admin/api/${prefix}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...body === undefined ? {} : { 'content-type': 'application/json' } },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await answer.text()
    return { status: answer.status, body: text === '' ? null : JSON.parse(text) }
  }
}

export interface TrafficTarget {
  /** The nodes taking traffic now (a killed node leaves the list). */
  liveOrigins(): string[]
  prefix: string
  key: string
  /** Bookable starts of an instant-confirmation tour and of an on-request one, for a party of one. */
  instant: { tourId: string, starts: string[] }
  onRequest: { tourId: string, starts: string[] }
}

export interface TrafficFigures {
  /** Requests whose change makes an event: checkouts and the operator's actions. */
  sent: number
  acknowledged: number
  /** Requests that got no answer (a node killed under them) or an unexpected one. */
  failed: string[]
  promised: PromisedEvent[]
}

/**
 * Guests and an operator making events over every live node, `workers` at a time, one
 * action each `paceMs`: instant bookings (booking.confirmed), requests (booking.requested)
 * that the operator confirms or declines, and cancellations of confirmed bookings. Runs
 * until `stop()`, whatever the receiver of the webhooks is doing.
 */
export function startEventTraffic(target: TrafficTarget, workers: number, paceMs: number) {
  const figures: TrafficFigures = { sent: 0, acknowledged: 0, failed: [], promised: [] }
  const requested: string[] = []
  const confirmed: string[] = []
  let stopped = false
  let turn = 0
  const nextOrigin = () => {
    const origins = target.liveOrigins()
    return origins[turn++ % origins.length]
  }

  /** Sends one request that makes an event; records it, and what it promised when answered 200. */
  async function eventful(what: string, send: () => Promise<{ status: number, body: any }>, promise: (body: any) => PromisedEvent | null): Promise<any> {
    figures.sent++
    try {
      const answer = await send()
      if (answer.status !== 200) {
        figures.failed.push(`${what}: ${answer.status} ${answer.body?.code ?? ''}`.trim())
        return null
      }
      figures.acknowledged++
      const promised = promise(answer.body)
      if (promised) figures.promised.push(promised)
      return answer.body
    } catch (err) {
      figures.failed.push(`${what}: no answer (${(err as Error).message})`)
      return null
    }
  }

  async function guestBooking(tour: TrafficTarget['instant'], n: number): Promise<void> {
    const client = new ApiClient(nextOrigin(), target.prefix, null)
    let headers: Record<string, string>
    try {
      headers = (await client.session()).headers
      const hold = await client.post('/booking', { tour_id: tour.tourId, start: tour.starts[n % tour.starts.length], party: 1 }, { headers })
      if (hold.status !== 200) {
        figures.failed.push(`hold: ${hold.status} ${hold.body?.code ?? ''}`.trim())
        return
      }
    } catch (err) {
      figures.failed.push(`hold: no answer (${(err as Error).message})`)
      return
    }
    const booking = await eventful('checkout', () => client.post('/checkout', { name: `Guest ${n}`, email: `guest${n}@example.com` }, { headers }),
      (body) => ({ type: `booking.${body.status}`, code: body.code }))
    if (booking?.status === 'confirmed') confirmed.push(booking.code)
    if (booking?.status === 'requested') requested.push(booking.code)
  }

  /** A request confirmed or declined, or (every other turn, or when no request waits) a confirmed booking cancelled; false when there is nothing to act on. */
  async function operatorAction(turn: number): Promise<boolean> {
    const api = operatorApi(nextOrigin(), target.prefix, target.key)
    const cancel = turn % 2 === 1 || requested.length === 0 ? confirmed.shift() : undefined
    if (cancel !== undefined) {
      await eventful('cancel', () => api('POST', `/bookings/${cancel}/cancel`, { fee: 'waived' }), () => ({ type: 'booking.cancelled', code: cancel }))
      return true
    }
    const code = requested.shift()
    if (code === undefined) return false
    const decline = code.charCodeAt(code.length - 1) % 3 === 0
    const body = await eventful(decline ? 'decline' : 'confirm', () => api('POST', `/bookings/${code}/${decline ? 'decline' : 'confirm'}`, decline ? { reason: 'drill' } : undefined),
      () => ({ type: decline ? 'booking.declined' : 'booking.confirmed', code }))
    if (body && !decline) confirmed.push(code)
    return true
  }

  let count = 0
  async function worker(): Promise<void> {
    while (!stopped) {
      const n = count++
      const began = performance.now()
      // Every third turn is the operator's, when a request or a confirmed booking waits for it.
      const operated = n % 3 === 2 && await operatorAction((n - 2) / 3)
      if (!operated) await guestBooking(n % 3 === 1 ? target.onRequest : target.instant, n)
      const wait = paceMs - (performance.now() - began)
      if (wait > 0) await sleep(wait)
    }
  }
  const running = Promise.all(Array.from({ length: workers }, worker))
  return {
    figures,
    async stop(): Promise<TrafficFigures> {
      stopped = true
      await running
      return figures
    },
  }
}
