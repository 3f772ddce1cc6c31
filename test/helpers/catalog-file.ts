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

/** A folder holding drillCatalog(capacity), changed by `edit` if given, as a file for server processes. */
export function drillCatalogFile(capacity: number, edit?: (catalog: any) => void): { dir: string, catalogPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-drill-'))
  const catalog = drillCatalog(capacity)
  edit?.(catalog)
  const catalogPath = join(dir, 'catalog.json')
  writeFileSync(catalogPath, JSON.stringify(catalog))
  return { dir, catalogPath }
}
