/**
 * What went wrong when a message could not be handed to the mail server, named as an operator
 * reads it: a certificate the server showed and we refused is a TLS failure, not "no answer".
 */
export interface SmtpFailure {
  /** refused: the server answered 5xx; deferred: it answered 4xx; the rest never got an answer about the message. */
  kind: 'refused' | 'deferred' | 'tls' | 'auth' | 'timeout' | 'connect' | 'error'
  /** Whether the answer is about the recipient (RCPT TO) rather than the server or the connection. */
  aboutRecipient: boolean
  /** One line, kept as the message's state_reason (GET /emails) and logged. */
  reason: string
}

/** Node's and OpenSSL's codes for a certificate the client would not accept. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'CERT_UNTRUSTED', 'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH', 'CERT_SIGNATURE_FAILURE',
])
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'])

/** The error nodemailer threw (its code, originalCode, responseCode and command), classified. */
export function smtpFailure(err: unknown): SmtpFailure {
  const { code, originalCode, responseCode, command, message } = (err ?? {}) as { code?: string, originalCode?: string, responseCode?: number, command?: string, message?: string }
  const text = (message ?? String(err)).replace(/\s+/g, ' ').trim()
  const aboutRecipient = command === 'RCPT TO'
  const line = (kind: SmtpFailure['kind'], reason: string): SmtpFailure => ({ kind, aboutRecipient, reason: reason.slice(0, 500) })
  if (typeof responseCode === 'number' && responseCode >= 400) {
    return line(responseCode >= 500 ? 'refused' : 'deferred', `the mail server answered ${responseCode}${command ? ` to ${command}` : ''}: ${text}`)
  }
  if (code === 'EAUTH') return line('auth', `the mail server refused the credentials of SMTP_URL: ${text}`)
  if (originalCode && CERTIFICATE_CODES.has(originalCode)) {
    return line('tls', `TLS failed: the mail server's certificate was not accepted (${text}, ${originalCode}); `
      + 'for a relay with its own certificate set SMTP_TLS_CA_FILE, or SMTP_TLS_REJECT_UNAUTHORIZED=off')
  }
  if (code === 'ETLS' || /^ERR_SSL_|^ERR_TLS_/.test(originalCode ?? '')) return line('tls', `TLS failed: ${text}${originalCode ? ` (${originalCode})` : ''}`)
  if (code === 'ETIMEDOUT' || originalCode === 'ETIMEDOUT' || /timeout/i.test(text)) return line('timeout', `no answer from the mail server in time: ${text}`)
  if (originalCode && CONNECT_CODES.has(originalCode)) return line('connect', `could not reach the mail server: ${text}`)
  return line('error', `${code ? `${code}: ` : ''}${text}`)
}
