import type { SessionGrant } from '../../src/schemas/session.ts'

/** One field-level complaint of a problem answer, e.g. `{ field: 'email', message: 'must match format "email"' }`. */
export interface FieldProblem {
  field: string
  message: string
}

/** A failed call: the API's problem+json, or `network` when no answer came. */
export class ApiProblem extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly errors: FieldProblem[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(code)
  }
}

/** An answer's body and the language its catalog texts are in (`Content-Language`; null on a route that carries none). */
export interface Answer<T> {
  body: T
  language: string | null
}

interface CallOptions {
  body?: unknown
  /** POST and DELETE /booking need the session's CSRF token. */
  csrf?: boolean
  /** Sends an Idempotency-Key, kept for a retry of the same request after a lost answer. */
  idempotent?: boolean
}

/**
 * The public API of one instance, as the browser calls it: same origin, the `sid` cookie
 * names the session, and the session id also goes in X-Session so the page keeps working
 * when it is embedded where third-party cookies are blocked.
 */
export class Api {
  private session: { id: string, csrf: string } | null = null
  private readonly retryKeys = new Map<string, string>()
  /** Server clock minus this device's clock, learned from each answer's Date header. */
  private clockOffsetMs = 0

  /** The page's language, set by the page: the catalog's texts are asked in it (docs/languages.md). */
  constructor(private readonly base: string, public language: string) {}

  /** The server's idea of now, in epoch milliseconds: hold countdowns follow it, not the device clock. */
  serverNow(): number {
    return Date.now() + this.clockOffsetMs
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path).then((answer) => answer.body)
  }

  /** A read with the language its catalog texts came in, which may be the instance's default rather than the page's. */
  getTexts<T>(path: string): Promise<Answer<T>> {
    return this.call<T>('GET', path)
  }

  post<T>(path: string, body: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<T> {
    return this.call<T>('POST', path, { ...options, body }).then((answer) => answer.body)
  }

  delete<T>(path: string, options: Omit<CallOptions, 'body'> = {}): Promise<T> {
    return this.call<T>('DELETE', path, options).then((answer) => answer.body)
  }

  private async ensureSession(): Promise<{ id: string, csrf: string }> {
    if (this.session) return this.session
    const grant = (await this.send<SessionGrant>('POST', '/session', {})).body
    this.session = { id: grant.session, csrf: grant.csrf_token }
    return this.session
  }

  private async call<T>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    try {
      return await this.send<T>(method, path, options)
    } catch (err) {
      // A session that lapsed or a token from before a restart: get a fresh pair once and retry.
      if (options.csrf && err instanceof ApiProblem && (err.code === 'csrf_invalid' || err.code === 'csrf_missing')) {
        this.session = null
        return this.send<T>(method, path, options)
      }
      throw err
    }
  }

  private async send<T>(method: string, path: string, options: CallOptions): Promise<Answer<T>> {
    // The catalog's texts in the page's own language where the instance has it; else the API
    // answers in its default language (docs/languages.md).
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': this.language }
    if (options.csrf) {
      const session = await this.ensureSession()
      headers['X-CSRF-Token'] = session.csrf
    }
    if (this.session) headers['X-Session'] = this.session.id
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const retryKey = `${method} ${path} ${body ?? ''}`
    if (options.idempotent) {
      const key = this.retryKeys.get(retryKey) ?? crypto.randomUUID()
      this.retryKeys.set(retryKey, key)
      headers['Idempotency-Key'] = key
    }
    let response: Response
    try {
      response = await fetch(this.base + path, { method, headers, body, credentials: 'same-origin' })
    } catch {
      throw new ApiProblem('network', 0)
    }
    // An answer came, so a retry is a new request and gets a new key.
    this.retryKeys.delete(retryKey)
    this.learnClock(response)
    const text = await response.text()
    const parsed = text === '' ? null : safeJson(text)
    if (response.ok) return { body: parsed as T, language: response.headers.get('Content-Language') }
    const problem = (parsed ?? {}) as Record<string, unknown>
    const { code, status, errors, type: _type, title: _title, detail: _detail, request_id: _id, ...details } = problem
    const retryAfter = response.headers.get('Retry-After')
    if (retryAfter) details.retry_after = Number(retryAfter)
    throw new ApiProblem(typeof code === 'string' ? code : 'internal', response.status, Array.isArray(errors) ? errors as FieldProblem[] : [], details)
  }

  private learnClock(response: Response): void {
    const date = Date.parse(response.headers.get('Date') ?? '')
    if (Number.isNaN(date)) return
    // Date has whole seconds, so the server's clock is on average half a second past it;
    // small differences are that rounding, not drift, and would only make the countdown jump.
    const offset = date + 500 - Date.now()
    if (Math.abs(offset - this.clockOffsetMs) > 1000) this.clockOffsetMs = offset
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
