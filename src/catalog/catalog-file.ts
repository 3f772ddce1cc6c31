import { readFileSync, statSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { CatalogFile, type CatalogInstance } from '../schemas/catalog.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'
import { catalogFileIssues } from '../domain/catalog-rules.ts'
import { ConfigError } from '../config/config-error.ts'

export const DEFAULT_HORIZON_DAYS = 365
export const DEFAULT_HOLD_MINUTES = 15

/** One tour operator served under /api/<prefix>. `ref` is its tenant id in every table. */
export interface Instance extends Omit<CatalogInstance, 'horizon_days' | 'hold_minutes' | 'decoys' | 'allowed_origins'> {
  horizonDays: number
  holdSeconds: number
  decoys: readonly string[]
  allowedOrigins: readonly string[]
}

const ajv = new Ajv({ allErrors: false, strict: false })
addFormats.default(ajv)
const validateCatalog = ajv.compile(CatalogFile)

/** A catalog file that fails validation; `field` names where (null when the file is not JSON), for callers that word it their own way. */
export class CatalogFileError extends ConfigError {
  constructor(readonly source: string, readonly field: string | null, readonly reason: string) {
    super(field === null ? `TOURDESK_CONFIG ${source} ${reason}` : `TOURDESK_CONFIG ${source}: ${field} ${reason}`)
  }
}

function fail(source: string, where: string, message: string): never {
  throw new CatalogFileError(source, where, message)
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
    throw new CatalogFileError(source, null, `is not valid JSON: ${(err as Error).message}`)
  }
  if (!validateCatalog(data)) {
    const first = validateCatalog.errors![0]
    const unknown = first.params.additionalProperty as string | undefined
    if (unknown) fail(source, `${first.instancePath}/${unknown}`, 'is not a known field')
    fail(source, first.instancePath || '(top level)', first.message ?? 'is invalid')
  }
  const { instances } = data as { instances: CatalogInstance[] }
  const [issue] = catalogFileIssues(instances)
  if (issue) fail(source, issue.field, issue.message)
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
