import type { TSchema } from 'typebox'

/**
 * Schemas registered here become `components.schemas` entries in openapi.json, and every
 * place that uses the same object is written as a `$ref` to that component.
 */
const names = new Map<object, string>()

export function named<T extends TSchema>(name: string, schema: T): T {
  names.set(schema, name)
  return schema
}

export function componentName(schema: object): string | undefined {
  return names.get(schema)
}
