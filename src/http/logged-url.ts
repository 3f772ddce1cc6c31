import type { FastifyRequest } from 'fastify'

/** Query parameters that carry a secret: newsletter confirmation tokens, guest session ids. */
const SECRET_PARAMETERS = new Set(['token', 'session'])
/** The email-action page's token is its last path segment (src/web/email-action-page.ts). */
const ACTION_TOKEN = /(\/email-actions\/)[^/?#]+/i
const REDACTED = '[redacted]'

function redactedParameter(pair: string): string {
  const equals = pair.indexOf('=')
  if (equals === -1) return pair
  let name = pair.slice(0, equals)
  try {
    name = decodeURIComponent(name)
  } catch {
    // A name that is not valid percent-encoding is kept as sent.
  }
  return SECRET_PARAMETERS.has(name.toLowerCase()) ? `${pair.slice(0, equals)}=${REDACTED}` : pair
}

/**
 * A request URL as the log may keep it: email-action, newsletter and session tokens in the
 * path or query, and anything after `#` (where manage and setup links keep theirs, which a
 * hand-made request could send), are replaced by [redacted].
 */
export function loggedUrl(url: string): string {
  const hash = url.indexOf('#')
  const beforeHash = hash === -1 ? url : url.slice(0, hash)
  const question = beforeHash.indexOf('?')
  const path = (question === -1 ? beforeHash : beforeHash.slice(0, question)).replace(ACTION_TOKEN, `$1${REDACTED}`)
  const query = question === -1 ? '' : `?${beforeHash.slice(question + 1).split('&').map(redactedParameter).join('&')}`
  return `${path}${query}${hash === -1 ? '' : `#${REDACTED}`}`
}

/** The request as the request log and error lines show it: Fastify's fields, the URL redacted. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
