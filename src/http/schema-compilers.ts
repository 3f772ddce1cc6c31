import { AjvCompiler } from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>
/** Both factories' shape as used here: one call per app, then one compile per route schema. */
type Factory = (...args: any[]) => (route: { schema?: unknown }) => unknown

/**
 * Fastify's own compilers (the same packages, the same options), with each compiled validator
 * and serializer kept for the life of the process. Compiling every route's schemas is most of
 * the CPU time of starting an app; a server builds one app and gains nothing, but the tests
 * build one per test case (test/helpers/build.ts) and the bench and drills several, and with
 * these each schema is compiled once per process instead of once per app. A schema's
 * compiled function depends only on the schema and the compiler's options, so both, written
 * out, are the key: an equal schema built anew for another app finds the kept function too.
 */
export function compiledOncePerProcess(factory: Factory): Factory {
  const compiled = new Map<string, unknown>()
  return (...factoryArgs) => {
    const compile = factory(...factoryArgs)
    const scope = JSON.stringify(factoryArgs)
    return (route) => {
      const key = `${scope}\n${JSON.stringify(route.schema)}`
      if (!compiled.has(key)) compiled.set(key, compile(route))
      return compiled.get(key)
    }
  }
}

type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown, schemaEnv?: unknown }

/**
 * Each route's validator and serializer compiled when a request first needs it instead of when
 * the app starts: compiling them all was most of a service's CPU time from spawn to its first
 * answer (bench/results/2026-11-27-checkout.md), and a node answers most routes seldom or never.
 * Fastify calls the function it was given and reads the validator's `errors` and `schemaEnv`
 * (node_modules/fastify/lib/validation.js, validateParam), which are the compiled function's.
 */
export function compiledOnFirstUse(factory: Factory): Factory {
  return (...factoryArgs) => {
    const compile = factory(...factoryArgs)
    return (route) => {
      let compiled: Compiled | undefined
      const real = () => (compiled ??= compile(route) as Compiled)
      const onFirstUse = function (this: unknown, ...args: unknown[]) {
        return real().apply(this, args)
      }
      return Object.defineProperties(onFirstUse, {
        errors: { get: () => real().errors },
        schemaEnv: { get: () => real().schemaEnv },
      })
    }
  }
}

export const keptCompilers: CompilersFactory = {
  buildValidator: compiledOncePerProcess(compiledOnFirstUse(AjvCompiler() as Factory)) as ValidatorFactory,
  buildSerializer: compiledOncePerProcess(compiledOnFirstUse(SerializerSelector() as Factory)) as SerializerFactory,
}
