import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoCatalog } from './build.ts'

/**
 * The demo catalog with one extra tour, `drill-departure`, that runs every day at 10:00 and
 * 16:00 Lisbon time with the given capacity and parties of 1 to 4.
 */
export function drillCatalog(capacity: number): any {
  const catalog = demoCatalog()
  const lisbon = catalog.instances[0]
  lisbon.tours.push({
    ...lisbon.tours[0],
    id: 'drill-departure',
    title: 'Drill departure',
    capacity,
    party: { min: 1, max: 4 },
    cutoff_minutes: 0,
    addons: [],
    schedule: [{ from: '2026-01-01', until: '2030-12-31', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], times: ['10:00', '16:00'] }],
    blackouts: [],
  })
  return catalog
}

/**
 * Gives the drill tour price categories (docs/units.md): an adult at the tour's price (the
 * first unit, so a party alone books that many adults as before), a child and an infant on a
 * lap (no seat, at most 2), both with an adult. Race and property runs mix them with
 * party-only holds, so seats and people differ.
 */
export function addDrillUnits(catalog: any): void {
  const drill = catalog.instances[0].tours.find((tour: any) => tour.id === 'drill-departure')
  drill.units = [
    { id: 'adult', type: 'adult', name: 'Adult', price: drill.price },
    { id: 'child', type: 'child', name: 'Child', price: Math.floor(drill.price / 2), accompanied_by: ['adult'] },
    { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_quantity: 2, accompanied_by: ['adult'] },
  ]
}

/** A folder holding drillCatalog(capacity), changed by `edit` if given, as a file for server processes. */
export function drillCatalogFile(capacity: number, edit?: (catalog: any) => void): { dir: string, catalogPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-drill-'))
  const catalog = drillCatalog(capacity)
  edit?.(catalog)
  const catalogPath = join(dir, 'catalog.json')
  writeFileSync(catalogPath, JSON.stringify(catalog))
  return { dir, catalogPath }
}
