import { readFileSync, statSync } from 'node:fs'
import type { ErrorObject } from 'ajv'
import type { CatalogInstance } from '../schemas/catalog.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'
import { catalogFileIssues } from '../domain/catalog-rules.ts'
import { ConfigError } from '../config/config-error.ts'
import { catalogFileValidator } from './catalog-schema.ts'

export const DEFAULT_HORIZON_DAYS = 365
export const DEFAULT_HOLD_MINUTES = 15

/** One tour operator served under /api/<prefix>. `ref` is its tenant id in every table. */
export interface Instance extends Omit<CatalogInstance, 'horizon_days' | 'hold_minutes' | 'decoys' | 'allowed_origins'> {
  horizonDays: number
  holdSeconds: number
  decoys: readonly string[]
  allowedOrigins: readonly string[]
}

/** One thing wrong with a catalog file: where (null when the file is not JSON) and what. */
export interface CatalogFileIssue {
  field: string | null
  reason: string
}

/** A catalog file that fails validation, with every issue found; `field` and `reason` are the first's, for callers that word it their own way. */
export class CatalogFileError extends ConfigError {
  readonly field: string | null
  readonly reason: string

  constructor(readonly source: string, readonly issues: readonly CatalogFileIssue[]) {
    super(`TOURDESK_CONFIG ${describeIssues(source, issues)}`)
    this.field = issues[0].field
    this.reason = issues[0].reason
  }
}

/** `file: /instances/0/x is not a known field; instances[1].tours[2].party.min is above party.max`, or `file is not valid JSON: …`. */
export function describeIssues(file: string, issues: readonly CatalogFileIssue[]): string {
  return `${file}${issues[0]?.field === null ? ' ' : ': '}${issues.map((i) => i.field === null ? i.reason : `${i.field} ${i.reason}`).join('; ')}`
}

/** The schema's errors as issues: an unknown field by its path; the umbrella of a union that failed adds nothing its branches do not say. */
function schemaIssues(errors: readonly ErrorObject[]): CatalogFileIssue[] {
  const issues = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').map((e) => {
    const unknown = e.params.additionalProperty as string | undefined
    return unknown ? { field: `${e.instancePath}/${unknown}`, reason: 'is not a known field' } : { field: e.instancePath || '(top level)', reason: e.message ?? 'is invalid' }
  })
  const seen = new Set<string>()
  return issues.filter((i) => !seen.has(`${i.field} ${i.reason}`) && seen.add(`${i.field} ${i.reason}`))
}

/** The instance as the service runs it: the file's optional settings given their defaults. */
export function toInstance(raw: CatalogInstance, holdSecondsOverride: number | null): Instance {
  const { horizon_days, hold_minutes, decoys, allowed_origins, ...rest } = raw
  return {
    ...rest,
    horizonDays: horizon_days ?? DEFAULT_HORIZON_DAYS,
    holdSeconds: holdSecondsOverride ?? (hold_minutes ?? DEFAULT_HOLD_MINUTES) * 60,
    decoys: decoys ?? [...DECOY_FIELD_NAMES],
    allowedOrigins: allowed_origins ?? [],
  }
}

/** The instances of a catalog file, checked against the schema and the catalog rules (src/domain/catalog-rules.ts). */
export function parseCatalogFile(text: string, source: string): CatalogInstance[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new CatalogFileError(source, [{ field: null, reason: `is not valid JSON: ${(err as Error).message}` }])
  }
  const validateCatalog = catalogFileValidator()
  if (!validateCatalog(data)) throw new CatalogFileError(source, schemaIssues(validateCatalog.errors!))
  // The rules read the instances as the schema shapes them: they are checked once it passes.
  const { instances } = data as { instances: CatalogInstance[] }
  const issues = catalogFileIssues(instances)
  if (issues.length > 0) throw new CatalogFileError(source, issues.map((i) => ({ field: i.field, reason: i.message })))
  return instances
}

export function parseCatalog(text: string, source: string, holdSecondsOverride: number | null): Instance[] {
  return parseCatalogFile(text, source).map((raw) => toInstance(raw, holdSecondsOverride))
}

/**
 * TOURDESK_CONFIG at a node's start: its instances, or the ConfigError that says why they
 * cannot be had (a node whose database holds a catalog serves that instead), and when the
 * file was last written.
 */
export function catalogFileAtStart(path: string): { catalog: CatalogInstance[] | ConfigError, catalogWrittenAtMs: number | null } {
  let writtenAtMs: number | null = null
  try {
    writtenAtMs = statSync(path).mtimeMs
    return { catalog: parseCatalogFile(readCatalogText(path), path), catalogWrittenAtMs: writtenAtMs }
  } catch (err) {
    if (err instanceof ConfigError) return { catalog: err, catalogWrittenAtMs: writtenAtMs }
    return { catalog: new ConfigError(`TOURDESK_CONFIG cannot be read: ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`), catalogWrittenAtMs: null }
  }
}

export function readCatalogText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(`TOURDESK_CONFIG cannot be read: ${path} (${(err as NodeJS.ErrnoException).code})`)
  }
}
