import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { sql } from 'kysely'
import type { TestService } from '../helpers/build.ts'

/** alfama-walk's 09:30 start on Tuesday 2 June 2026 (Lisbon is at +01:00). */
export const ALFAMA_START = '2026-06-02T08:30:00Z'
export const HOLD = { tour_id: 'alfama-walk', start: ALFAMA_START, party: 2 }
export const CHECKOUT = { name: 'Ana', email: 'ana@example.pt' }
export const BASE = '/api/lisbon'

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  body: any
}

export interface RawRequest {
  method: string
  /** Path from the origin, e.g. /api/lisbon/booking. */
  path: string
  headers?: Record<string, string | number>
  /** Sent with Content-Length unless `chunks` is used. */
  body?: string | Buffer
  /** Sent one write at a time with Transfer-Encoding: chunked and no Content-Length. */
  chunks?: Buffer[]
  /** Loopback address to connect from (e.g. 127.0.0.2), so one test can be several clients. */
  localAddress?: string
}

/**
 * One request over a fresh node:http connection, byte for byte as given: no JSON encoding,
 * no default Content-Type, any method. Used where fetch cannot say what a hostile client says.
 */
export function raw(service: TestService, request: RawRequest): Promise<RawResponse> {
  const url = new URL(service.origin)
  const headers: Record<string, string | number> = { ...request.headers }
  if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body)
  if (request.chunks !== undefined) headers['transfer-encoding'] = 'chunked'
  return new Promise((resolve, reject) => {
    let answered = false
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      headers,
      agent: false,
      localAddress: request.localAddress,
    }, (res) => {
      answered = true
      const parts: Buffer[] = []
      res.on('data', (part: Buffer) => parts.push(part))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8')
        const type = String(res.headers['content-type'] ?? '')
        let body: any = text
        if (type.includes('json') && text !== '') {
          try {
            body = JSON.parse(text)
          } catch (err) {
            reject(new Error(`${request.method} ${request.path} answered ${type} that is not JSON: ${text.slice(0, 200)}`, { cause: err }))
            return
          }
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body })
      })
    })
    // The server may answer (413, 431) and close before it has read everything we send.
    req.on('error', (err) => { if (!answered) reject(err) })
    const send = async () => {
      if (request.chunks) {
        for (const chunk of request.chunks) {
          if (answered || req.destroyed) break
          req.write(chunk)
          await new Promise((r) => setTimeout(r, 2))
        }
        req.end()
      } else {
        req.end(request.body)
      }
    }
    send().catch((err) => { if (!answered) reject(err) })
  })
}

/**
 * Bytes exactly as given on a fresh TCP connection, for what node:http will not send (no
 * Host, a broken request line, CONNECT); the answer after any 1xx is parsed as `raw` parses it.
 * The connection must end (the server closes it, or `text` ends with a request saying so).
 */
export function exchange(service: TestService, text: string): Promise<RawResponse> {
  const url = new URL(service.origin)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text))
    const parts: Buffer[] = []
    socket.on('data', (part: Buffer) => parts.push(part))
    socket.on('error', reject)
    socket.on('close', () => {
      const answer = Buffer.concat(parts).toString('utf8').replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)+/, '')
      const split = answer.indexOf('\r\n\r\n')
      if (split < 0) return reject(new Error(`no answer to ${JSON.stringify(text.slice(0, 80))}: ${JSON.stringify(answer)}`))
      const [statusLine, ...lines] = answer.slice(0, split).split('\r\n')
      const headers: http.IncomingHttpHeaders = {}
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim()
      const body = answer.slice(split + 4)
      const type = String(headers['content-type'] ?? '')
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text: body, body: type.includes('json') && body !== '' ? JSON.parse(body) : body })
    })
  })
}

/** JSON POST/DELETE helper over raw HTTP: `body` is sent exactly as given when it is a string. */
export function send(service: TestService, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(service, {
    method,
    path: `${BASE}${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  })
}

/**
 * The answer is an RFC 9457 problem with this status and code, a request id, and nothing
 * that looks like a stack trace or HTML. When `service` is given and the path is an instance
 * path, the answer must also be one openapi.json documents.
 */
export function assertProblem(res: RawResponse, status: number, code: string, service?: TestService, method?: string, path?: string): void {
  const summary = `${res.status} ${res.text.slice(0, 400)}`
  assert.equal(res.status, status, summary)
  assert.ok(String(res.headers['content-type']).startsWith('application/problem+json'), `content-type ${res.headers['content-type']}: ${summary}`)
  assert.equal(typeof res.body, 'object', summary)
  assert.equal(res.body.code, code, summary)
  assert.equal(res.body.status, status, summary)
  assert.equal(typeof res.body.type, 'string', summary)
  assert.equal(typeof res.body.title, 'string', summary)
  assert.equal(typeof res.body.detail, 'string', summary)
  assert.equal(typeof res.body.request_id, 'string', summary)
  assert.ok(res.body.request_id.length > 0, summary)
  assertNoLeak(res)
  if (service && method && path) service.contract.check(method, path, res.status, String(res.headers['content-type']), res.body)
}

/** No stack frames, source paths or markup in an answer. */
export function assertNoLeak(res: RawResponse): void {
  assert.doesNotMatch(res.text, /\bat [\w.<>]+ \(|\.ts:\d+|node_modules|\/work\//, `answer leaks internals: ${res.text.slice(0, 400)}`)
  assert.doesNotMatch(res.text, /<html|<body|<!doctype/i, `answer is HTML: ${res.text.slice(0, 400)}`)
  assert.equal(res.body?.stack, undefined, 'no stack property')
}

/** The field names in a validation problem's errors[]. */
export function errorFields(res: RawResponse): string[] {
  assert.ok(Array.isArray(res.body.errors), `errors[] is present: ${res.text}`)
  return res.body.errors.map((e: { field: string }) => e.field)
}

export function assertValidationFailed(res: RawResponse, field: string, service?: TestService, method?: string, path?: string): void {
  assertProblem(res, 400, 'validation_failed', service, method, path)
  assert.ok(errorFields(res).includes(field), `errors[] names ${field}: ${res.text}`)
}

const COUNTED_TABLES = ['bookings', 'booking_events', 'departures', 'contact_messages', 'newsletter_signups', 'newsletter_subscribers', 'idempotency_keys', 'promo_redemptions'] as const

/** What must not move under a refused request (sessions may be created, so they are left out). */
export async function snapshot(service: TestService): Promise<Record<string, unknown>> {
  const db = service.context.store.db
  const out: Record<string, unknown> = {}
  for (const table of COUNTED_TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)
    out[`${table}.count`] = Number(rows[0].n)
  }
  const seats = await sql<{ s: number | null }>`select sum(seats_taken) as s from departures`.execute(db)
  out['departures.seats_taken'] = Number(seats.rows[0].s ?? 0)
  const bookings = await sql<Record<string, unknown>>`select id, status, quarantined, contact_name, contact_email, code, updated_at from bookings order by id`.execute(db)
  out.bookings = bookings.rows
  out.tables = await tableNames(service)
  return out
}

export async function tableNames(service: TestService): Promise<string[]> {
  const tables = await service.context.store.db.introspection.getTables()
  return tables.map((table) => table.name).sort()
}

/** Runs `hostile` and asserts the database is as it was before. */
export async function unchanged<T>(service: TestService, hostile: () => Promise<T>): Promise<T> {
  const before = await snapshot(service)
  const result = await hostile()
  assert.deepEqual(await snapshot(service), before, 'the database changed')
  return result
}

export interface Visitor {
  session: string
  csrf: string
  headers: Record<string, string>
}

export async function visitor(service: TestService): Promise<Visitor> {
  return service.client().session()
}

/** A visitor holding alfama-walk seats (party 2) through the real API. */
export async function holder(service: TestService, body: Record<string, unknown> = HOLD): Promise<Visitor & { bookingId: string }> {
  const v = await visitor(service)
  const res = await send(service, 'POST', '/booking', body, v.headers)
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.status, 'held')
  return { ...v, bookingId: res.body.id }
}

export async function bookingRow(service: TestService, id: string) {
  return service.context.store.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function seatsTaken(service: TestService, start = '2026-06-02T08:30:00Z'): Promise<number> {
  const rows = await service.context.store.db.selectFrom('departures').select(['start_at', 'seats_taken']).where('tour_id', '=', 'alfama-walk').execute()
  const row = rows.find((r) => Date.parse(r.start_at) === Date.parse(start))
  return row?.seats_taken ?? 0
}
