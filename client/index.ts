/**
 * A typed client for the tourdesk guest API: openapi-fetch over the types that
 * openapi-typescript generates from openapi.json (guest-api.d.ts, written by
 * `npm run client:generate`). Paths, query and path parameters, request headers such as
 * X-CSRF-Token and Idempotency-Key, bodies and answers are all typed by the document.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { components, paths } from './guest-api.d.ts'

export type { components, paths }
export type GuestClient = Client<paths>
/** The records of the guest API by name: Booking, Tour, Slot, SessionGrant, Problem … */
export type GuestSchemas = components['schemas']

/** Whether a Set-Cookie line's attributes remove the cookie (Max-Age of 0 or less). */
const removesCookie = (attributes: string[]) => attributes.some((a) => /^\s*max-age\s*=\s*(0|-)/i.test(a))

/**
 * Node's fetch keeps no cookies, but the service names a visitor's session by the sid
 * cookie it sets on the index and POST /session (and sends again after a hold). This keeps
 * the cookies the answers set and sends them back on every request, as a browser would for
 * this one base URL. Expiry is left to the server, which treats a lapsed session as none.
 */
export function cookieJar(): Middleware {
  const cookies = new Map<string, string>()
  return {
    onRequest({ request }) {
      if (cookies.size > 0) request.headers.set('Cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
      return request
    },
    onResponse({ response }) {
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(';')
        const equals = pair.indexOf('=')
        if (equals < 1) continue
        const name = pair.slice(0, equals).trim()
        if (removesCookie(attributes)) cookies.delete(name)
        else cookies.set(name, pair.slice(equals + 1).trim())
      }
    },
  }
}

/**
 * A client for one instance, `<origin>/api/<prefix>`, that keeps its session like a browser
 * does. Each client is one visitor: two clients are two devices. The CSRF token is a typed
 * header parameter of the calls that need it (POST /session answers it as csrf_token).
 */
export function createGuestClient(origin: string, prefix: string): GuestClient {
  const client = createClient<paths>({ baseUrl: new URL(`/api/${encodeURIComponent(prefix)}`, origin).href })
  client.use(cookieJar())
  return client
}
