import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { serializeAnswer } from './serialized-answer.ts'

/**
 * Items serialized at a time: a slice of a long list costs a bounded amount of memory. A
 * slice stays well under V8's large-object size (128 KB; a tour is about 1.6 KB of JSON):
 * larger ones outlive the scavenges that should collect them, and streaming the whole list
 * of ten thousand tours to five readers then grew a node by 40–70 MB instead of about 12.
 */
const SLICE_ITEMS = 25
/** An answer that grows past this is streamed slice by slice instead of being made whole (and is never kept). */
export const WHOLE_ANSWER_MAX_BYTES = 1024 * 1024

/** A list answer: whole (and fit to keep), or too large for that and sent as a stream of slices. */
export type ListAnswer = { whole: Buffer, stream?: never } | { stream: Readable, whole?: never }

const arraySchemas = new WeakMap<TSchema, TSchema>()

function arrayOf(item: TSchema): TSchema {
  let schema = arraySchemas.get(item)
  if (!schema) {
    schema = Type.Array(item)
    arraySchemas.set(item, schema)
  }
  return schema
}

/**
 * Serializes `answer`, whose `listField` holds items of `itemSchema`, byte for byte as the
 * route's response schema would (the envelope through the route's own serializer, the items
 * through a serializer compiled for them), but a slice of items at a time. A list of ten
 * thousand tours is 16 MB of JSON: made whole for every reader at once, it would cost each
 * of them that much memory, so past WHOLE_ANSWER_MAX_BYTES the rest is made as the socket
 * takes it.
 */
export function serializeList(reply: FastifyReply, answer: Record<string, unknown>, listField: string, itemSchema: TSchema): ListAnswer {
  const items = answer[listField] as unknown[]
  const envelope = serializeAnswer(reply, { ...answer, [listField]: [] })
  const field = envelope.indexOf(`${JSON.stringify(listField)}:[]`)
  if (field === -1) throw new TypeError(`the answer serialized has no empty ${listField} list`)
  // The position of the list's "[".
  const hole = field + listField.length + 3
  // Fastify types the compiled function for object payloads; an array schema takes an array.
  const serializeItems = reply.compileSerializationSchema(arrayOf(itemSchema) as Record<string, unknown>) as unknown as (items: unknown[]) => string

  function* chunks(): Generator<Buffer> {
    yield Buffer.from(envelope.slice(0, hole + 1))
    for (let i = 0; i < items.length; i += SLICE_ITEMS) {
      const slice = serializeItems(items.slice(i, i + SLICE_ITEMS))
      yield Buffer.from(`${i === 0 ? '' : ','}${slice.slice(1, -1)}`)
    }
    yield Buffer.from(envelope.slice(hole + 1))
  }

  const made = chunks()
  const parts: Buffer[] = []
  let bytes = 0
  for (let next = made.next(); ; next = made.next()) {
    if (next.done) return { whole: Buffer.concat(parts, bytes) }
    parts.push(next.value)
    bytes += next.value.length
    if (bytes > WHOLE_ANSWER_MAX_BYTES) break
  }
  function* rest(): Generator<Buffer> {
    yield* parts.splice(0)
    yield* made
  }
  return { stream: Readable.from(rest(), { objectMode: false }) }
}
