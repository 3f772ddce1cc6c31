import type { Temporal } from 'temporal-polyfill'
import type { ConfigError } from '../config/config-error.ts'
import type { CatalogInstance } from '../schemas/catalog.ts'
import type { Store } from '../store/store.ts'
import type { CatalogEditor, DifferingInstance } from './catalog-editor.ts'

export interface CatalogFileAtStart {
  /** The file's instances, or why they cannot be had (it cannot be read, is not JSON, breaks a rule). */
  instances: readonly CatalogInstance[] | ConfigError
  /** Where it came from, named in the log. */
  source?: string
  /** When the file was last written (its mtime, epoch ms); null when unknown. */
  writtenAtMs?: number | null
}

export interface SeedingLog {
  warn(details: object, message: string): void
}

const CLI = 'npm run -s tourdesk --'

/**
 * The catalog file at a node's start (docs/catalog.md, "Lifecycle"): it seeds an empty
 * database; a database that already holds a catalog is served whatever the file says. A file
 * that cannot be used stops only a node that has nothing else to serve; otherwise it is a
 * warning. When the file and the database differ, the line says which is newer, so that it
 * never urges `catalog import` over edits made since the file was written (an import would
 * undo them): the database's own edits are written out with `catalog export`.
 */
export async function seedFromFile(store: Store, editor: CatalogEditor, file: CatalogFileAtStart, now: Temporal.Instant,
  log: SeedingLog | undefined, reportDrift: boolean): Promise<void> {
  const name = file.source ? `the catalog file ${file.source}` : 'the catalog file'
  if (!Array.isArray(file.instances)) {
    const error = file.instances as ConfigError
    if ((await store.read(() => store.catalog.versions())).length === 0) throw error
    log?.warn({ catalog_file: file.source ?? null, error: error.message },
      `${name} cannot be used (${error.message}); the catalog the database holds is served`)
    return
  }
  const { differing } = await editor.seed(file.instances, now)
  if (differing.length === 0 || !reportDrift) return
  const writtenAt = file.writtenAtMs ?? null
  // An instance the database does not hold yet, or one not changed since the file was written, is the file's to apply.
  const fileNewer = differing.filter((d) => d.changedAt === null || (writtenAt !== null && Date.parse(d.changedAt) < writtenAt))
  const databaseNewer = differing.filter((d) => !fileNewer.includes(d))
  const prefixes = (list: DifferingInstance[]) => list.map((d) => d.prefix)
  if (databaseNewer.length > 0) {
    const exports = databaseNewer.length === differing.length && file.source
      ? `${CLI} catalog export > ${file.source}`
      : databaseNewer.map((d) => `${CLI} catalog export --instance ${d.prefix}`).join('; ')
    log?.warn({ instances: prefixes(databaseNewer), catalog_file: file.source ?? null, database_changed_at: databaseNewer.map((d) => d.changedAt) },
      `the database holds a newer catalog than ${name} for ${prefixes(databaseNewer).join(', ')} (edited since the file was written); `
      + `the database is served. To write it out to the file: ${exports}`)
  }
  if (fileNewer.length > 0) {
    const source = file.source ?? 'FILE'
    log?.warn({ instances: prefixes(fileNewer), catalog_file: file.source ?? null },
      `${name} differs from the database for ${prefixes(fileNewer).join(', ')} and was written after the database's catalog last changed; `
      + `the database is served. To see what the file would change: ${CLI} catalog import ${source} --dry-run; to apply it: ${CLI} catalog import ${source}`)
  }
}
