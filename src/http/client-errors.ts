import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import { ERROR_CODES } from './error-codes.ts'

/**
 * How long a client may keep its connection after the answer below. Node's HTTP server
 * leaves a connection half-open after `end()`, so a slowloris client that ignores the
 * answer and keeps trickling bytes would otherwise hold it (and a file descriptor) forever.
 */
const CLOSE_GRACE_MS = 5_000

/**
 * Requests Node's HTTP parser rejects before any route sees them: headers over 16 KiB and
 * malformed request lines still get a problem+json answer, not a bare status line. So do
 * requests too slow for the server's header and request timeouts.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const headersTooLarge = err.code === 'HPE_HEADER_OVERFLOW'
  const status = headersTooLarge ? 431 : 400
  const code = headersTooLarge ? 'headers_too_large' : 'bad_request'
  const body = JSON.stringify({
    type: `https://tourdesk.dev/problems/${code}`,
    title: ERROR_CODES[code].title,
    status,
    detail: headersTooLarge ? 'Request headers may total at most 16 KiB' : 'The HTTP request could not be parsed',
    code,
    request_id: randomUUID(),
  })
  socket.end(`HTTP/1.1 ${status} ${headersTooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n`
    + `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS)
  cut.unref()
  socket.once('close', () => clearTimeout(cut))
}
