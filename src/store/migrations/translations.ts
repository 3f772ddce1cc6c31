import type { Kysely, Migration } from 'kysely'

/**
 * Migration 027, guest languages (docs/languages.md): a tour's translations and a policy
 * version's, as JSON by language as the catalog file writes them (null: none). The instance's
 * `languages` needs no column: it is one of the settings (catalog_instances.settings).
 */
export const translationMigrations = (): Record<string, Migration> => ({
  '027_translations': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('catalog_tours').addColumn('translations', 'text').execute()
      await db.schema.alterTable('catalog_policies').addColumn('translations', 'text').execute()
    },
  },
})
