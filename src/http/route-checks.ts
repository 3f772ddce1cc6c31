import type { FastifyRequest, RouteOptions } from 'fastify'
import { sessionAndCsrfGuard } from './guards.ts'
import { readMissingBodyAsEmpty, rejectForbiddenBodyKeys, requiresBody } from './json-body.ts'
import { hasIntegerQuery, parseStrictQueryIntegers } from './query-integers.ts'

type Check = (request: FastifyRequest) => Promise<void>

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function readsOnly(route: RouteOptions): boolean {
  return [route.method].flat().every((method) => READ_METHODS.has(method))
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : [hooks].flat() as T[]
}

/**
 * An `onRoute` hook that gives each API route only the pre-validation checks it needs, in
 * the contract's order (integer query parsing, then session, Origin and CSRF, then
 * forbidden body keys, then `{}` for a body that may be and was left out). Every hook costs each request that passes through it, and a tour
 * list needs none of them.
 */
export function attachRouteChecks(route: RouteOptions): void {
  const checks: Check[] = []
  if (hasIntegerQuery(route.schema?.querystring)) checks.push(parseStrictQueryIntegers)
  if (route.config?.session || !readsOnly(route)) checks.push(sessionAndCsrfGuard)
  if (!readsOnly(route)) checks.push(rejectForbiddenBodyKeys)
  if (route.schema?.body && !requiresBody(route.schema.body)) checks.push(readMissingBodyAsEmpty)
  route.preValidation = [...checks, ...asList(route.preValidation)]
}
