import type { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'

/** Options of the routes that keep serialized answers; TOURDESK_REUSE_ANSWERS=off turns it off. */
export interface AnswerReuse {
  reuseAnswers: boolean
}

/** The 200 answer for `value` as the route's response schema serializes it (fast-json-stringify gives a string). */
export function serializeAnswer(reply: FastifyReply, value: unknown): string {
  const body = reply.serialize(value)
  if (typeof body !== 'string') throw new TypeError('the response serializer did not give a string')
  return body
}

/**
 * Sends a body made by `serializeAnswer` (or by `serializeList`, whole or as a stream), so an
 * answer kept for reuse is byte for byte what the schema would produce now.
 */
export function sendSerialized(reply: FastifyReply, body: string | Buffer | Readable): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body)
}
