import type { Instance } from '../catalog/catalog-file.ts'

/** True when a field that people never see (a decoy) was filled in: the submission is quarantined. */
export function fillsDecoy(instance: Instance, body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false
  return instance.decoys.some((field) => {
    const value = (body as Record<string, unknown>)[field]
    return typeof value === 'string' && value.trim() !== ''
  })
}
