import { createHmac, randomBytes } from 'node:crypto'

/** Standard Webhooks 1.0: a symmetric secret is whsec_ followed by the base64 of its bytes (at least 24; we make 32). */
export const SECRET_PREFIX = 'whsec_'

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

/** `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed with the secret's bytes (not its text). */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/**
 * The three headers of one attempt. With several secrets (the 24 hours after a rotation) the
 * signatures are space-separated, so a receiver that knows either secret verifies the message.
 */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' '),
  }
}
