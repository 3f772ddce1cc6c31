import type { Role } from '../../src/domain/roles.ts'
import type { TestService } from './build.ts'

export const STAFF_PASSWORD = 'correct horse battery staple'

export interface OperatorResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

/** Real HTTP to one instance's operator API, as a staff member (cookie and CSRF token) or an API key. */
export class OperatorClient {
  constructor(readonly origin: string, readonly prefix: string, private readonly credential: { cookie?: string, csrf?: string, bearer?: string } = {}) {}

  get base(): string {
    return `${this.origin}/admin/api/${this.prefix}`
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<OperatorResponse<T>> {
    const sent: Record<string, string> = { ...headers }
    if (this.credential.cookie) sent.cookie = this.credential.cookie
    if (this.credential.bearer) sent.authorization = `Bearer ${this.credential.bearer}`
    if (this.credential.csrf && method !== 'GET') sent['x-csrf-token'] ??= this.credential.csrf
    if (body !== undefined) sent['content-type'] ??= 'application/json'
    const response = await fetch(`${this.base}${path}`, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) })
    // An event stream (GET /stream) never ends: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel()
      return { status: response.status, headers: response.headers, body: '' as T, text: '' }
    }
    const text = await response.text()
    const parsed = response.headers.get('content-type')?.includes('json') && text !== '' ? JSON.parse(text) : text
    return { status: response.status, headers: response.headers, body: parsed as T, text }
  }

  get<T = any>(path: string, headers?: Record<string, string>) { return this.request<T>('GET', path, undefined, headers) }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('POST', path, body, headers) }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('PATCH', path, body, headers) }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('PUT', path, body, headers) }
  delete<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('DELETE', path, body, headers) }
}

/** A staff account made through the service (as the CLI does), signed in over HTTP. */
export async function signedInStaff(service: TestService, role: Role, prefix = 'lisbon', email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`) {
  const catalog = service.context.catalogs.get(prefix)!
  await service.context.staff.addStaff(catalog.instance.ref, { email, name: `A ${role}`, role, password: STAFF_PASSWORD }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  const anonymous = new OperatorClient(service.origin, prefix)
  const signIn = await anonymous.post('/session', { email, password: STAFF_PASSWORD })
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${signIn.text}`)
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  return { email, client: new OperatorClient(service.origin, prefix, { cookie, csrf: signIn.body.csrf_token }), signIn }
}

/** An API key of `role`, made through the service. */
export async function apiKeyClient(service: TestService, role: Role, prefix = 'lisbon') {
  const catalog = service.context.catalogs.get(prefix)!
  const { secret, key } = await service.context.staff.createKey(catalog.instance.ref, { name: `${role} key`, role }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return { secret, key, client: new OperatorClient(service.origin, prefix, { bearer: secret }) }
}
