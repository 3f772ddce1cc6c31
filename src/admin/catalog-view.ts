import type { OperatorPromoCode, OperatorTour, SettingName, Settings } from '../schemas/admin/catalog.ts'
import { SETTING_NAMES } from '../schemas/admin/catalog.ts'
import type { CatalogInstance, CatalogPromoCode, CatalogTour } from '../schemas/catalog.ts'
import type { CatalogEditResult } from '../catalog/catalog-editor.ts'

/** Wire shapes of the catalog routes' answers, from the catalog in the file's format. */

export function tourView(tour: CatalogTour): OperatorTour {
  return { ...tour, archived: tour.archived === true }
}

export function promoCodeView(promo: CatalogPromoCode, uses: number): OperatorPromoCode {
  return { ...promo, uses }
}

/** The instance's own fields; an optional one left unset is null (its default applies). */
export function settingsView(instance: CatalogInstance): Settings {
  return Object.fromEntries(SETTING_NAMES.map((name: SettingName) => [name, instance[name] ?? null])) as Settings
}

/** What every catalog edit answers besides the part it edited (the editor's result, less the whole catalog). */
export function editSummary(result: CatalogEditResult) {
  const { dry_run, catalog_version, changes, orphaned_departures, capacity_kept } = result
  return { dry_run, catalog_version, changes, orphaned_departures, capacity_kept }
}
