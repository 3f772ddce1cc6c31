/** One field a refusal names (problem+json `errors[]`): `price`, `party.min`, `schedule[0].from`, `tiers.0.fee_percent`. */
export interface FieldError { field: string, message: string }

/** A refusal of the operator API (problem+json), or a network failure (status 0). */
export class Problem extends Error {
  constructor(readonly status: number, readonly code: string, detail: string, readonly retryAfterSeconds: number | null = null,
    readonly errors: FieldError[] = [],
    /** The whole problem body, for a code's own members (capacity_below_booked's seats_taken, precondition_failed's version). */
    readonly body: Record<string, unknown> = {}) {
    super(detail)
  }
}

export interface Me {
  kind: 'staff' | 'key'
  id: string
  name: string
  email: string | null
  role: 'guide' | 'viewer' | 'staff' | 'manager'
  permissions: string[]
  instance: { prefix: string, name: string, timezone: string, currency: string }
  /** Whether the service sends email at all (SMTP_URL is set). */
  email_enabled: boolean
}

/**
 * The operator API of one instance, from the same origin: the td_staff cookie travels by
 * itself; the session's CSRF token is kept in this browser (every tab of it) and sent on writes.
 */
export class AdminApi {
  /** Called when a call meant for a signed-in user is refused with 401: the session has ended. */
  onSessionEnded: () => void = () => {}

  constructor(readonly base: string, private readonly prefix: string) {}

  private get csrfKey(): string {
    return `tourdesk-admin-csrf:${this.prefix}`
  }

  get hasSession(): boolean {
    return localStorage.getItem(this.csrfKey) !== null
  }

  async request<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const csrf = localStorage.getItem(this.csrfKey)
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf
    let response: Response
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' })
    } catch {
      throw new Problem(0, 'network', 'The service could not be reached. Check the connection and try again.')
    }
    if (response.status === 204) return undefined as T
    const data = await response.json().catch(() => null)
    if (response.ok) return data as T
    const retryAfter = Number(response.headers.get('retry-after'))
    const problem = new Problem(response.status, data?.code ?? 'internal', data?.detail ?? `The service answered ${response.status}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      Array.isArray(data?.errors) ? data.errors : [], data !== null && typeof data === 'object' ? data : {})
    if (response.status === 401 && path !== '/session' && path !== '/me') this.sessionEnded()
    throw problem
  }

  get<T>(path: string): Promise<T> { return this.request<T>('GET', path) }
  post<T>(path: string, body?: unknown): Promise<T> { return this.request<T>('POST', path, body) }
  put<T>(path: string, body: unknown): Promise<T> { return this.request<T>('PUT', path, body) }
  patch<T>(path: string, body: unknown, version?: number): Promise<T> {
    return this.request<T>('PATCH', path, body, version === undefined ? {} : { 'if-match': `"${version}"` })
  }
  delete<T>(path: string): Promise<T> { return this.request<T>('DELETE', path) }

  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.post<{ csrf_token: string }>('/session', { email, password })
    localStorage.setItem(this.csrfKey, answer.csrf_token)
  }

  async signOut(): Promise<void> {
    try {
      await this.delete('/session')
    } finally {
      localStorage.removeItem(this.csrfKey)
    }
  }

  sessionEnded(): void {
    localStorage.removeItem(this.csrfKey)
    this.onSessionEnded()
  }
}
