import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'

export const MAX_JSON_DEPTH = 16
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

const invalid = (detail: string) => new ApiError('invalid_json', detail)

/**
 * Keys found by the parser that could reach an object prototype. They are answered with
 * validation_failed only after the CSRF guard, because the contract ranks 403 above it.
 */
const forbiddenKeyByRequest = new WeakMap<FastifyRequest, string>()

/**
 * One pass over the JSON text before it is parsed: nesting depth, duplicate keys and keys
 * that could reach an object prototype. JSON.parse alone silently keeps the last of
 * duplicate keys, and an object key named __proto__ is an attack on whatever merges it.
 * Returns the first forbidden key, if any.
 */
function scanJson(text: string): string | undefined {
  let forbiddenKey: string | undefined
  const keysByDepth: (Set<string> | null)[] = []
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '"') {
      let end = i + 1
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      if (end >= text.length) return forbiddenKey
      const keys = keysByDepth[keysByDepth.length - 1]
      if (expectKey && keys) {
        // A key without escapes is its text as it stands; only an escaped one needs decoding.
        const raw = text.slice(i + 1, end)
        const key = raw.includes('\\') ? decodedKey(raw) : raw
        if (FORBIDDEN_KEYS.has(key)) forbiddenKey ??= key
        if (keys.has(key)) throw invalid(`The key "${key}" appears twice in one object`)
        keys.add(key)
      }
      expectKey = false
      i = end
    } else if (ch === '{' || ch === '[') {
      keysByDepth.push(ch === '{' ? new Set() : null)
      if (keysByDepth.length > MAX_JSON_DEPTH) throw invalid(`JSON nesting deeper than ${MAX_JSON_DEPTH} levels is not accepted`)
      expectKey = ch === '{'
    } else if (ch === '}' || ch === ']') {
      keysByDepth.pop()
    } else if (ch === ',') {
      expectKey = keysByDepth[keysByDepth.length - 1] instanceof Set
    }
  }
  return forbiddenKey
}

/** An escaped key's text; a bad escape is invalid JSON, as JSON.parse would find later. */
function decodedKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch (err) {
    throw invalid(`The body is not valid JSON: ${(err as Error).message}`)
  }
}

const dropForbiddenKeys = (key: string, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value)

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed()
  if (Array.isArray(value)) return value.some(hasLoneSurrogate)
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => !k.isWellFormed() || hasLoneSurrogate(v))
  }
  return false
}

/** Parses request bodies: UTF-8 JSON only, no byte-order mark, bounded nesting, no duplicate or prototype keys. */
export function parseJsonBody(request: FastifyRequest, body: Buffer): unknown {
  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    throw invalid('The body is not valid UTF-8')
  }
  if (text.charCodeAt(0) === 0xfeff) throw invalid('The body starts with a byte-order mark; send plain UTF-8 JSON')
  if (text.trim() === '') {
    if (!requiresBody(request.routeOptions.schema?.body)) return undefined
    throw invalid('The body is empty; send a JSON object')
  }
  const forbiddenKey = scanJson(text)
  let value: unknown
  try {
    value = forbiddenKey === undefined ? JSON.parse(text) : JSON.parse(text, dropForbiddenKeys)
  } catch (err) {
    throw invalid(`The body is not valid JSON: ${(err as Error).message}`)
  }
  // Strict UTF-8 decoding leaves no lone surrogate in the text: only a \u escape can make one.
  if (text.includes('\\u') && hasLoneSurrogate(value)) throw invalid('The body contains an unpaired UTF-16 surrogate escape')
  if (forbiddenKey !== undefined) forbiddenKeyByRequest.set(request, forbiddenKey)
  return value
}

/**
 * Whether a route needs a body: it has a body schema with a required field (in each of its
 * shapes, for a union). A body whose every field is optional (NoBody, for one) may be left
 * out, and then reads as `{}`.
 */
export function requiresBody(schema: unknown): boolean {
  const { required, anyOf } = (schema ?? {}) as { required?: unknown[], anyOf?: unknown[] }
  if (anyOf !== undefined) return anyOf.length > 0 && anyOf.every(requiresBody)
  return (required?.length ?? 0) > 0
}

/** preValidation hook for routes whose body may be left out: no body is validated as `{}`, so it passes and fields are still checked. */
export async function readMissingBodyAsEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {}
}

/** preValidation hook, registered after the CSRF guard. */
export async function rejectForbiddenBodyKeys(request: FastifyRequest): Promise<void> {
  const key = forbiddenKeyByRequest.get(request)
  if (key === undefined) return
  throw new ApiError('validation_failed', `The key "${key}" is not accepted`, { errors: [{ field: key, message: 'is not a known field' }] })
}

/**
 * application/json with no charset or charset=utf-8 is the only body the API reads. Other
 * bodies are still read up to the size limit so that an oversized one is 413, which the
 * contract ranks above 415.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0 && !requiresBody(request.routeOptions.schema?.body)) return done(null, undefined)
    done(new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json'), undefined)
  })
  app.addContentTypeParser(/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as Buffer))
    } catch (err) {
      done(err as Error, undefined)
    }
  })
}
