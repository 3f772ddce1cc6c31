import type { ContractChecker } from './contract.ts'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface RequestOptions {
  /** Headers whose value is undefined are not sent. */
  headers?: Record<string, string | undefined>
  /** A JSON value (sent as application/json) or a raw string sent as is. */
  body?: unknown
  raw?: boolean
}

/** Real HTTP to one instance; every answer is checked against openapi.json unless the path is outside it. */
export class ApiClient {
  constructor(readonly origin: string, readonly prefix: string, private readonly contract: ContractChecker | null) {}

  get base(): string {
    return `${this.origin}/api/${this.prefix}`
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name] = value
    let body: string | undefined
    if (options.body !== undefined) {
      body = options.raw ? String(options.body) : JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, body })
    const text = await response.text()
    const contentType = response.headers.get('content-type')
    const parsed = contentType?.includes('json') && text !== '' ? JSON.parse(text) : text
    this.contract?.check(method, path, response.status, contentType, parsed)
    return { status: response.status, headers: response.headers, body: parsed as T, text }
  }

  get<T = any>(path: string, options?: RequestOptions) { return this.request<T>('GET', path, options) }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) { return this.request<T>('POST', path, { ...options, body }) }
  delete<T = any>(path: string, options?: RequestOptions) { return this.request<T>('DELETE', path, options) }

  /** POST /session, returning the session id and CSRF token as a non-browser client would use them. */
  async session(): Promise<{ session: string, csrf: string, headers: Record<string, string> }> {
    const { body } = await this.post('/session')
    return { session: body.session, csrf: body.csrf_token, headers: { 'x-session': body.session, 'x-csrf-token': body.csrf_token } }
  }
}
