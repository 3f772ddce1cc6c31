import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { readSettings } from '../../src/config/env.ts'
import { openStore } from '../../src/store/store.ts'
import { demoCatalog } from '../helpers/build.ts'
import { failed, runCli, succeeded, type CliRun } from '../helpers/cli.ts'
import { migratedDatabase, testDialect } from '../helpers/database.ts'
import { delayUntil, PROPAGATION_LIMIT_MS } from '../helpers/propagation.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

// `tourdesk catalog import|export` through the CLI's entry (test/helpers/cli.ts) on a real database (a fresh SQLite
// file, or a fresh PostgreSQL schema under TEST_DATABASE_URL), and a started service
// (src/server.ts bundled as `npm start` runs it, its own process) that serves what they write without a restart.

async function setting(t: TestContext) {
  const db = await migratedDatabase()
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-catalog-'))
  const servers: ServerProcess[] = []
  t.after(async () => {
    for (const server of servers) await server.stop()
    await db.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  const run = (args: string[]) => runCli(args, { env: { DATABASE_URL: db.url } })
  return {
    run,
    /** Writes a catalog file (an object as pretty JSON, or text as is) and answers its path. */
    file(name: string, content: unknown): string {
      const path = join(dir, name)
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
      return path
    },
    /** The instance exported; the export says nothing on stderr, not even that the catalog file (the demo) differs from the database. */
    async exported(prefix: string): Promise<any> {
      const { stdout, stderr } = succeeded(await run(['catalog', 'export', '--instance', prefix]))
      assert.equal(stderr, '')
      return JSON.parse(stdout)
    },
    async start(env: Record<string, string> = {}): Promise<ServerProcess> {
      const server = await startServer({ DATABASE_URL: db.url, ...env })
      servers.push(server)
      return server
    },
    async auditRows(action: string) {
      const store = await openStore(readSettings({ DATABASE_URL: db.url }).database, { migrate: false })
      try {
        return await store.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute()
      } finally {
        await store.close()
      }
    },
  }
}

/** The demo for a new season: a price, an archived tour, a promo code, a policy version, a setting left to its default, a new tour. */
function seasonCatalog(): any {
  const catalog = demoCatalog()
  const [lisbon, nyc] = catalog.instances
  lisbon.tours.find((tour: any) => tour.id === 'alfama-walk').price = 2400
  lisbon.tours.find((tour: any) => tour.id === 'belem-bike').archived = true
  lisbon.promo_codes.push({ code: 'FAIR26', kind: 'fixed', value: 500, valid_from: '2026-09-01', valid_until: '2026-09-30', tour_ids: ['alfama-walk'] })
  lisbon.cancellation_policy = { ...lisbon.cancellation_policy, version: lisbon.cancellation_policy.version + 1, no_show_fee_percent: 80 }
  delete nyc.hold_minutes
  nyc.tours.push({ ...nyc.tours[0], id: 'staten-island-ferry', title: 'Staten Island Ferry at dusk', price: 2500 })
  return catalog
}

const SEASON_CHANGES = {
  lisbon: ['policy.published flexible-48', 'tour.updated alfama-walk', 'tour.archived belem-bike', 'promo_code.created FAIR26'],
  nyc: ['settings.updated ny8h3p5r', 'tour.created staten-island-ferry'],
}

/** The change summary of `import --format json`, by prefix: what changed, and the catalog version after. */
function summaryOf(run: CliRun): Record<string, { changes: string[], catalog_version: number, dry_run: boolean }> {
  succeeded(run)
  return Object.fromEntries(JSON.parse(run.stdout).map((s: any) => [s.instance.prefix, {
    changes: s.changes.map((c: any) => `${c.action} ${c.target.id}`),
    catalog_version: s.catalog_version,
    dry_run: s.dry_run,
  }]))
}

/** Runs a few commands at a time: enough to be quick, few enough not to starve a loaded CI machine. */
async function inBatches<T>(items: T[], work: (item: T) => Promise<void>, size = 4): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work))
}

/** An instance as a file may say it: `archived: false` is the same as leaving it out. */
function normalised(instance: any): any {
  return { ...instance, tours: instance.tours.map(({ archived, ...tour }: any) => (archived ? { ...tour, archived } : tour)) }
}

/** GET /api/<prefix>/tours on a node: status and the tours by id. */
async function toursOn(server: ServerProcess, prefix: string): Promise<{ status: number, tours: Map<string, any> }> {
  const res = await fetch(`${server.origin}/api/${prefix}/tours`)
  const body = await res.json() as any
  return { status: res.status, tours: new Map(res.status === 200 ? body.tours.map((tour: any) => [tour.id, tour]) : []) }
}

test(`import, export, import again on ${testDialect}: the export is the imported file, and importing it changes nothing`, async (t) => {
  const { run, file, exported, auditRows } = await setting(t)
  const season = seasonCatalog()
  const path = file('season.json', season)

  const first = summaryOf(await run(['catalog', 'import', path, '--format', 'json']))
  assert.deepEqual(first, {
    lisbon: { changes: SEASON_CHANGES.lisbon, catalog_version: 2, dry_run: false },
    nyc: { changes: SEASON_CHANGES.nyc, catalog_version: 2, dry_run: false },
  })

  const exports = await Promise.all([exported('lisbon'), exported('nyc')])
  for (const [i, { instances }] of exports.entries()) {
    assert.equal(instances.length, 1)
    assert.deepEqual(normalised(instances[0]), normalised(season.instances[i]), `the export of ${season.instances[i].prefix} is what was imported`)
  }

  const again = file('exported.json', { instances: exports.flatMap((e) => e.instances) })
  const second = summaryOf(await run(['catalog', 'import', again, '--format', 'json']))
  assert.deepEqual(second, { lisbon: { changes: [], catalog_version: 2, dry_run: false }, nyc: { changes: [], catalog_version: 2, dry_run: false } })
  const third = succeeded(await run(['catalog', 'import', path, '--format', 'text']))
  assert.equal(third.stdout, 'lisbon (lx4t7k2m): no changes, catalog version 2\nnyc (ny8h3p5r): no changes, catalog version 2\n')

  const [priced] = await auditRows('catalog.tour.updated')
  assert.deepEqual([priced.actor_type, priced.actor_id, priced.target_id, JSON.parse(priced.before!), JSON.parse(priced.after!)],
    ['system', 'cli', 'alfama-walk', { price: 1900 }, { price: 2400 }])
})

test(`import --dry-run on ${testDialect} prints what would change and changes nothing`, async (t) => {
  const { run, file, exported } = await setting(t)
  const path = file('season.json', seasonCatalog())

  const text = succeeded(await run(['catalog', 'import', path, '--dry-run', '--format', 'text']))
  assert.equal(text.stdout, [
    'lisbon (lx4t7k2m): 4 changes (dry run: nothing changed)',
    '  policy.published flexible-48',
    '  tour.updated alfama-walk: price',
    '  tour.archived belem-bike',
    '  promo_code.created FAIR26',
    'nyc (ny8h3p5r): 2 changes (dry run: nothing changed)',
    '  settings.updated ny8h3p5r: hold_minutes',
    '  tour.created staten-island-ferry',
    '',
  ].join('\n'))
  assert.deepEqual(summaryOf(await run(['catalog', 'import', path, '--dry-run', '--format', 'json'])), {
    lisbon: { changes: SEASON_CHANGES.lisbon, catalog_version: 1, dry_run: true },
    nyc: { changes: SEASON_CHANGES.nyc, catalog_version: 1, dry_run: true },
  })
  const [lisbon, nyc] = await Promise.all([exported('lisbon'), exported('nyc')])
  assert.deepEqual([...lisbon.instances, ...nyc.instances], demoCatalog().instances)
})

test(`units on ${testDialect}: --dry-run says what changes in them, the export writes them back exactly as imported, a broken one is named`, async (t) => {
  const { run, file, exported } = await setting(t)
  const catalog = demoCatalog()
  const sail = catalog.instances[0].tours.find((tour: any) => tour.id === 'tagus-sunset-sail')
  const [adult, child] = sail.units
  // Keys in an order of the operator's own, optional fields left out: written back as they are, not with defaults filled in.
  const senior = { price: 5500, name: 'Senior', type: 'senior', id: 'senior', min_age: 65 }
  sail.units = [{ ...adult, price: 7000 }, senior, { ...child, max_quantity: 6 }]
  sail.price = 7000
  const alfama = catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk')
  alfama.units = [{ id: 'person', type: 'adult', name: 'Person', price: alfama.price }]
  const path = file('units.json', catalog)

  const dry = succeeded(await run(['catalog', 'import', path, '--dry-run', '--format', 'text']))
  assert.equal(dry.stdout, [
    'lisbon (lx4t7k2m): 2 changes (dry run: nothing changed)',
    '  tour.updated alfama-walk: units',
    "    units: person (implicit, at the tour's price) removed; person added",
    '  tour.updated tagus-sunset-sail: price, units',
    '    units: infant removed; adult: price; senior added; child: max_quantity',
    'nyc (ny8h3p5r): no changes',
    '',
  ].join('\n'))
  const json = JSON.parse(succeeded(await run(['catalog', 'import', path, '--format', 'json'])).stdout)
  assert.deepEqual(json[0].changes.map((c: any) => [c.target.id, c.fields, c.unit_changes]), [
    ['alfama-walk', ['units'], ["person (implicit, at the tour's price) removed", 'person added']],
    ['tagus-sunset-sail', ['price', 'units'], ['infant removed', 'adult: price', 'senior added', 'child: max_quantity']],
  ])
  const [lisbon] = (await exported('lisbon')).instances
  const tourIn = (id: string) => lisbon.tours.find((tour: any) => tour.id === id)
  assert.equal(JSON.stringify(tourIn('tagus-sunset-sail').units), JSON.stringify(sail.units), 'the same text: key order, and no default added')
  assert.equal(JSON.stringify(tourIn('alfama-walk').units), JSON.stringify(alfama.units))
  assert.equal('units' in tourIn('port-wine-tasting'), false, 'a tour without units is exported without')

  sail.units[2] = { ...sail.units[2], accompanied_by: ['grown-up'] }
  failed(await run(['catalog', 'import', file('unknown-unit.json', catalog)]),
    /unknown-unit\.json: instances\[0\]\.tours\[1\]\.units\[2\]\.accompanied_by names unknown unit "grown-up"/)
  sail.units[2] = { ...child, max_quantity: 6 }
  sail.price = 6500
  failed(await run(['catalog', 'import', file('price.json', catalog)]), /price\.json: instances\[0\]\.tours\[1\]\.price must be the first unit's price, 7000/)
})

test(`an invalid file on ${testDialect} exits 1 with one line naming the field, and nothing is applied`, async (t) => {
  const { run, file, exported } = await setting(t)
  const broken = (name: string, edit: (catalog: any) => void) => {
    const catalog = seasonCatalog()
    edit(catalog)
    return file(name, catalog)
  }

  const misspelt = broken('misspelt.json', (c) => { c.instances[0].tours[1].capcity = 3 })
  const refusals: [string[], RegExp][] = [
    [['catalog', 'import', misspelt], /misspelt\.json: \/instances\/0\/tours\/1\/capcity is not a known field/],
    [['catalog', 'import', misspelt, '--dry-run'], /capcity is not a known field/],
    [['catalog', 'import', broken('type.json', (c) => { c.instances[1].tours[0].price = '39.00' })], /type\.json: \/instances\/1\/tours\/0\/price must be integer/],
    [['catalog', 'import', broken('party.json', (c) => { c.instances[0].tours[1].party.min = 99 })], /party\.json: instances\[0\]\.tours\[1\]\.party\.min is above party\.max/],
    [['catalog', 'import', broken('promo.json', (c) => { c.instances[0].promo_codes[2].tour_ids = ['no-such-tour'] })],
      /instances\[0\]\.promo_codes\[2\]\.tour_ids names unknown tour "no-such-tour"/],
    // The second instance takes a prefix the database gives another: refused before the first is applied.
    [['catalog', 'import', broken('taken.json', (c) => { c.instances[1] = { ...c.instances[1], ref: 'qq1w2e3r', prefix: 'nyc', name: 'Not New York' } })],
      /taken\.json: instances\[1\]\.prefix "nyc" is another instance's prefix/],
    [['catalog', 'import', file('not-json.json', '{"instances": [')], /not-json\.json is not valid JSON/],
    // Every error of the file in the one line, as the API lists them: the schema's, or once it passes, the rules'.
    [['catalog', 'import', broken('several.json', (c) => { c.instances[0].tours[1].capcity = 3; c.instances[1].tours[0].price = '39.00' })],
      /several\.json: \/instances\/0\/tours\/1\/capcity is not a known field; \/instances\/1\/tours\/0\/price must be integer\n$/],
    [['catalog', 'import', broken('rules.json', (c) => { c.instances[0].tours[1].party.min = 99; c.instances[0].promo_codes[2].tour_ids = ['no-such-tour'] })],
      /rules\.json: instances\[0\]\.tours\[1\]\.party\.min is above party\.max; instances\[0\]\.promo_codes\[2\]\.tour_ids names unknown tour "no-such-tour"\n$/],
    [['catalog', 'import', join(tmpdir(), 'no-such-dir', 'catalog.json')], /cannot read .*catalog\.json \(ENOENT\)/],
    [['catalog', 'export', '--instance', 'porto'], /no instance has the prefix "porto"/],
  ]
  await inBatches(refusals, async ([args, why]) => failed(await run(args), why))

  await inBatches([['catalog', 'import'], ['catalog', 'export', '--instance'], ['catalog', 'import', misspelt, '--format', 'yaml']], async (args) => {
    const usage = await run(args)
    assert.equal(usage.code, 2, `${args.join(' ')}: ${usage.stderr}`)
    assert.equal(usage.stdout, '')
  })

  const [lisbon, nyc] = await Promise.all([exported('lisbon'), exported('nyc')])
  assert.deepEqual([...lisbon.instances, ...nyc.instances], demoCatalog().instances)
  assert.deepEqual(JSON.parse(succeeded(await run(['catalog', 'export'])).stdout), demoCatalog(), 'without --instance, every instance')
})

test(`a price imported on ${testDialect} while a node runs is served by it within 2 s, and an archived tour is gone`, async (t) => {
  const { run, file, start } = await setting(t)
  const server = await start()
  assert.equal((await toursOn(server, 'lisbon')).tours.get('alfama-walk').price.amount, 1900)

  succeeded(await run(['catalog', 'import', file('season.json', seasonCatalog())]))
  // Each instance is imported in its own transaction, so the node may load lisbon's a moment before nyc's.
  const delay = await delayUntil(async () => {
    const { tours } = await toursOn(server, 'lisbon')
    const nyc = (await toursOn(server, 'nyc')).tours
    return tours.get('alfama-walk')?.price.amount === 2400 && !tours.has('belem-bike') && nyc.get('staten-island-ferry')?.price.amount === 2500
  })
  t.diagnostic(`the imported price was served ${delay.toFixed(0)} ms after the import exited`)
  assert.ok(delay <= PROPAGATION_LIMIT_MS, `${delay.toFixed(0)} ms`)
  assert.equal((await toursOn(server, 'nyc')).tours.get('staten-island-ferry')?.price.amount, 2500)
})

test(`a node started on ${testDialect} with a file written after the database's catalog says so in one line, with the commands that check and apply it`, async (t) => {
  const { run, file, start } = await setting(t)
  const seeded = await start()
  assert.ok(!seeded.output().includes('differs from the database'), seeded.output())
  await seeded.stop()

  const path = file('season.json', seasonCatalog())
  const differing = await start({ TOURDESK_CONFIG: path })
  const lines = differing.output().split('\n').filter((line) => line.includes('differs from the database'))
  assert.equal(lines.length, 1, differing.output())
  const { msg, instances } = JSON.parse(lines[0])
  assert.deepEqual(instances, ['lisbon', 'nyc'])
  assert.ok(msg.includes(`the catalog file ${path} differs from the database for lisbon, nyc and was written after the database's catalog last changed`), msg)
  assert.ok(msg.endsWith(`To see what the file would change: npm run -s tourdesk -- catalog import ${path} --dry-run; to apply it: npm run -s tourdesk -- catalog import ${path}`), msg)
  assert.equal((await toursOn(differing, 'lisbon')).tours.get('alfama-walk').price.amount, 1900, 'the database is served, not the file')
  await differing.stop()

  succeeded(await run(['catalog', 'import', path]))
  const applied = await start({ TOURDESK_CONFIG: path })
  assert.ok(!applied.output().includes('differs from the database'), applied.output())
  assert.equal((await toursOn(applied, 'lisbon')).tours.get('alfama-walk').price.amount, 2400)
})

test(`after an edit through the operator API on ${testDialect}, a start says the database is newer than the file and that catalog export writes it out, never to import the file; a broken file then stops nothing`, async (t) => {
  const { run, file, start } = await setting(t)
  const path = file('catalog.json', demoCatalog())
  const first = await start({ TOURDESK_CONFIG: path })
  const key = succeeded(await run(['keys', 'create', '--instance', 'lisbon', '--name', 'back office', '--role', 'manager'])).stdout.trim()
  const edit = await fetch(`${first.origin}/admin/api/lisbon/tours/alfama-walk`, {
    method: 'PATCH', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ price: 2100 }),
  })
  assert.equal(edit.status, 200, await edit.text())
  await first.stop()

  const restarted = await start({ TOURDESK_CONFIG: path })
  const output = restarted.output()
  assert.ok(!output.includes('catalog import'), `nothing urges importing the file over the edit:\n${output}`)
  const lines = output.split('\n').filter((line) => line.includes('newer catalog'))
  assert.equal(lines.length, 1, output)
  const { msg, instances } = JSON.parse(lines[0])
  assert.deepEqual(instances, ['lisbon'])
  assert.equal(msg, `the database holds a newer catalog than the catalog file ${path} for lisbon (edited since the file was written); `
    + `the database is served. To write it out to the file: npm run -s tourdesk -- catalog export > ${path}`)
  assert.equal((await toursOn(restarted, 'lisbon')).tours.get('alfama-walk').price.amount, 2100)
  await restarted.stop()

  // The command it names, run: the file holds the edit, and the next start has nothing to say.
  file('catalog.json', succeeded(await run(['catalog', 'export'])).stdout)
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).instances.map((i: { prefix: string }) => i.prefix).sort(), ['lisbon', 'nyc'])
  const quiet = await start({ TOURDESK_CONFIG: path })
  assert.doesNotMatch(quiet.output(), /newer catalog|differs from the database/)
  await quiet.stop()

  file('catalog.json', '{"instances": [{"prefix": "lisbon",')
  const broken = await start({ TOURDESK_CONFIG: path })
  const warning = broken.output().split('\n').find((line) => line.includes('cannot be used'))
  assert.ok(warning, broken.output())
  assert.match(JSON.parse(warning).msg, new RegExp(`^the catalog file ${path.replace(/[.\\/]/g, '\\$&')} cannot be used \\(TOURDESK_CONFIG .* is not valid JSON: .*\\); the catalog the database holds is served$`))
  assert.equal((await toursOn(broken, 'lisbon')).tours.get('alfama-walk').price.amount, 2100, 'the node serves the database')
})
