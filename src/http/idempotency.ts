import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ERASED } from '../domain/erasure.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { canonicalJson } from '../domain/json-equal.ts'
import type { RecordAnswer } from '../store/write-plan.ts'
import { IdempotencyKeyTaken, type IdempotencyScope } from '../store/idempotency.ts'
import { ApiError } from '../errors/api-error.ts'
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem.ts'

export const IDEMPOTENCY_HOURS = 24
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

/** Keys of this process's requests still running; another node's show up as a key conflict. */
const inFlight = new Set<string>()

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method} ${request.routeOptions.url} ${canonicalJson(request.body ?? null)}`).digest('hex')
}

function replay(reply: FastifyReply, stored: { status_code: number, body: string }): FastifyReply {
  return reply.code(stored.status_code)
    .header('Idempotent-Replayed', 'true')
    .type(stored.status_code < 400 ? 'application/json; charset=utf-8' : PROBLEM_CONTENT_TYPE)
    .send(stored.body)
}


/** Who an Idempotency-Key belongs to: the staff member or API key of an operator request, else the guest session; null when neither. */
function callerOf(request: FastifyRequest): string | null {
  if (request.staff) return `${request.staff.kind}:${request.staff.id}`
  return request.session?.id ?? null
}

/**
 * Runs `work` at most once per Idempotency-Key (IETF httpapi idempotency-key draft), scoped to
 * the instance and the caller (guest session, staff member or API key). The success answer
 * is written in the same transaction as the change it reports, so a crash can never
 * separate them; a 4xx answer is kept too. A retry with the same key and body gets the
 * first answer (and status) with Idempotent-Replayed: true, another body is 422
 * idempotency_key_reused, and a retry while the first runs is 409. A key whose answer a
 * privacy erasure emptied is 410 idempotent_answer_erased, whatever the body.
 */
export async function runIdempotent<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (record?: RecordAnswer<T>) => Promise<T>,
  successStatus = 200,
): Promise<T | FastifyReply> {
  const key = request.headers['idempotency-key']
  const caller = callerOf(request)
  if (key === undefined || caller === null) return work()
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
    })
  }
  const { store, clock } = request.server.httpParts
  const scope: IdempotencyScope = { instance_id: request.catalog.instance.ref, caller, key }
  const fingerprint = fingerprintOf(request)
  const now = clock.now()
  const lookUp = async () => {
    const stored = await store.idempotency.find(scope, toStoredInstant(clock.now()))
    // An erasure keeps that the key was answered but not what it answered (src/store/privacy.ts): running the request again would book twice.
    if (stored?.fingerprint === ERASED) {
      throw new ApiError('idempotent_answer_erased', 'This Idempotency-Key was already answered; the answer was erased with the personal data it held, and the request is not run again')
    }
    if (stored && stored.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request')
    }
    return stored
  }
  const stored = await lookUp()
  if (stored) return replay(reply, stored)
  const flightKey = `${scope.instance_id}/${scope.caller}/${key}`
  if (inFlight.has(flightKey)) {
    throw new ApiError('idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly', { headers: { 'Retry-After': '1' } })
  }
  inFlight.add(flightKey)
  const createdAt = toStoredInstant(now)
  const expiresAt = toStoredInstant(now.add({ hours: IDEMPOTENCY_HOURS }))
  try {
    return await work((answer) => store.idempotency.record(scope, { fingerprint, status_code: successStatus, body: JSON.stringify(answer) }, createdAt, expiresAt))
  } catch (err) {
    if (err instanceof IdempotencyKeyTaken) {
      const winner = await lookUp()
      if (winner) return replay(reply, winner)
    }
    if (err instanceof ApiError && err.status < 500) {
      const body = JSON.stringify(problemBody(err, request.id))
      try {
        await store.write(() => store.idempotency.record(scope, { fingerprint, status_code: err.status, body }, createdAt, expiresAt))
      } catch (recordError) {
        // Another node answered this key first: its answer is the one every retry gets.
        const winner = recordError instanceof IdempotencyKeyTaken ? await lookUp() : undefined
        if (winner) return replay(reply, winner)
      }
    }
    throw err
  } finally {
    inFlight.delete(flightKey)
  }
}
