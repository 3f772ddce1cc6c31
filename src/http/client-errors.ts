import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import type { ErrorCode } from '../errors/codes.ts'
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem.ts'
import { SECURITY_HEADERS } from './security-headers.ts'

/**
 * How long a client may keep its connection after the answer below. Node's HTTP server
 * leaves a connection half-open after `end()`, so a slowloris client that ignores the
 * answer and keeps trickling bytes would otherwise hold it (and a file descriptor) forever.
 */
const CLOSE_GRACE_MS = 5_000

const PARSER_ERRORS: Record<string, { code: ErrorCode, detail: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'Request headers may total at most 16 KiB' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'Headers must arrive within 10 s and the whole request within 30 s' },
  default: { code: 'bad_request', detail: 'The HTTP request could not be parsed' },
}

/**
 * A problem answer for the places that answer before Fastify has a request: the same body
 * and security headers as every other problem, a fresh request id, and the connection
 * closed afterwards (whatever is left of the request on it cannot be trusted).
 */
function bareProblem(error: ApiError): { headers: Record<string, string>, body: string } {
  const body = JSON.stringify(problemBody(error, randomUUID()))
  return {
    body,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Content-Length': String(Buffer.byteLength(body)),
      ...SECURITY_HEADERS,
      Connection: 'close',
    },
  }
}

/** Writes the answer straight to the socket (there is no ServerResponse), then lets the client go. */
function answerOnSocket(socket: Socket, error: ApiError): void {
  const { headers, body } = bareProblem(error)
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head}\r\n${body}`)
  const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS)
  cut.unref()
  socket.once('close', () => clearTimeout(cut))
}

/**
 * Requests Node's HTTP parser rejects before any route sees them: headers over 16 KiB and
 * malformed request lines still get a problem+json answer, not a bare status line. So do
 * requests too slow for the server's header and request timeouts.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // As Node's own handler does: nothing is written once an earlier answer on this connection
  // has started (a second status line would corrupt it), nor to a peer that is gone.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  const { code, detail } = PARSER_ERRORS[err.code ?? ''] ?? PARSER_ERRORS.default
  answerOnSocket(socket, new ApiError(code, detail))
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112, section 3.2). Node would answer a request
 * without one with a bare 400 before any hook runs, so the server is made with
 * `requireHostHeader: false` and this onRequest hook refuses it instead, as a problem.
 */
export function rejectMissingHost(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { raw } = request
  if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1) {
    done(new ApiError('bad_request', 'An HTTP/1.1 request must carry a Host header', { headers: { Connection: 'close' } }))
    return
  }
  done()
}

/**
 * Node's own answers that bypass Fastify, replaced by problems: an `Expect` other than
 * 100-continue (Node writes a bare 417), and CONNECT (Node closes the connection without a
 * word). `Expect: 100-continue` keeps Node's behaviour: 100 Continue, then the route.
 */
export function answerOutsideRoutes(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const { headers, body } = bareProblem(new ApiError('expectation_failed', 'The only expectation this server meets is Expect: 100-continue'))
    response.writeHead(417, headers).end(body)
  })
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    answerOnSocket(socket, new ApiError('bad_request', 'CONNECT is not served here: this is an API, not a proxy'))
  })
}
