import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import { ERROR_CODES } from './error-codes.ts'

/**
 * How long a client may keep its connection after the answer below. Node's HTTP server
 * leaves a connection half-open after `end()`, so a slowloris client that ignores the
 * answer and keeps trickling bytes would otherwise hold it (and a file descriptor) forever.
 */
const CLOSE_GRACE_MS = 5_000

const ANSWERS: Record<string, { code: 'headers_too_large' | 'request_timeout' | 'bad_request', detail: string, reason: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'Request headers may total at most 16 KiB', reason: 'Request Header Fields Too Large' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'Headers must arrive within 10 s and the whole request within 30 s', reason: 'Request Timeout' },
  default: { code: 'bad_request', detail: 'The HTTP request could not be parsed', reason: 'Bad Request' },
}

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
  const { code, detail, reason } = ANSWERS[err.code ?? ''] ?? ANSWERS.default
  const { status, title } = ERROR_CODES[code]
  const body = JSON.stringify({ type: `https://tourdesk.dev/problems/${code}`, title, status, detail, code, request_id: randomUUID() })
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n`
    + `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS)
  cut.unref()
  socket.once('close', () => clearTimeout(cut))
}
