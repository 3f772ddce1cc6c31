import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { build } from '../helpers/build.ts'
import { ManualClock } from '../helpers/manual-clock.ts'
import { readmeBlocks, runBash } from '../helpers/readme-walkthrough.ts'
import { checkAgainstOcto } from '../octo/octo-client.ts'

// The README's "Selling through resellers (OCTo)": the key made with the CLI and the curl
// walk-through, as pasted, against an app built in this process on the same database. The
// walk-through picks its day from the real date, so the service's clock starts at the real now.

test("the README's reseller walk-through runs as pasted: a reseller key by the CLI, then supplier, availability, reserve, confirm and get", async (t) => {
  const service = await build(t, { clock: new ManualClock(Temporal.Now.instant().round({ smallestUnit: 'second' }).toString()) })
  assert.deepEqual((await readmeBlocks('Selling through resellers (OCTo)')), [], 'the section itself has no code; its parts do')
  const [makeKey] = readmeBlocks('A key for each reseller')
  const [walkThrough] = readmeBlocks("A reseller's booking with curl")
  assert.ok(makeKey && walkThrough, 'one block makes the key, one walks through')

  // -e, -u and pipefail only make a failure visible here; a reader pastes the blocks into an interactive shell.
  const run = await runBash(`set -euo pipefail\n${makeKey}\n${walkThrough}`, { BASE: service.origin, DATABASE_URL: service.databaseUrl })
  assert.equal(run.code, 0, `the walk-through failed (exit ${run.code}):\n${run.stderr}\n${run.stdout}`)
  assert.match(run.stderr, /^tourdesk: API key \S+ \(reseller\) created in lisbon; send it as Authorization: Bearer <secret>\n$/, 'the CLI says what it made, on stderr')

  const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))
  assert.equal(answers.length, 5, `supplier, availability, reserve, confirm, get; got:\n${run.stdout}`)
  const [supplier, availability, reserved, confirmed, read] = answers
  for (const [method, path, answer] of [['GET', '/supplier/', supplier], ['POST', '/availability/', availability], ['POST', '/bookings/', reserved],
    ['POST', '/bookings/{uuid}/confirm', confirmed], ['GET', '/bookings/{uuid}', read]] as const) {
    await checkAgainstOcto(method, path, 200, answer)
  }

  const lisbon = service.context.catalogs.get('lisbon')!.instance
  assert.deepEqual([supplier.id, supplier.endpoint], [lisbon.ref, `${service.origin}/octo/lisbon`])
  const day = Temporal.Now.instant().add({ hours: 72 }).toString().slice(0, 10)
  assert.ok(availability.length > 0 && availability.every((a: { localDateTimeStart: string }) => a.localDateTimeStart.startsWith(day)), `the departures of ${day}`)
  const picked = availability.find((a: { available: boolean }) => a.available)
  assert.deepEqual([reserved.status, reserved.availabilityId, reserved.unitItems.length, reserved.resellerReference], ['ON_HOLD', picked.id, 2, 'OTA-1001'])
  assert.deepEqual([confirmed.uuid, confirmed.status, confirmed.pricing.retail, confirmed.pricing.net], [reserved.uuid, 'CONFIRMED', 3800, 3040])
  assert.deepEqual([read.uuid, read.status, read.supplierReference], [reserved.uuid, 'CONFIRMED', confirmed.supplierReference])

  // The operator sees it as the section's last part says: the reseller's name and net, nothing due.
  const [key] = (await service.context.store.staff.listKeys(lisbon.ref)).filter((k) => k.role === 'reseller')
  assert.deepEqual([key.name, JSON.parse(key.products!), key.commission_basis_points], ['Lisbon OTA', ['alfama-walk', 'fado-night'], 2000])
  const booking = await service.context.operatorBookings.find(service.context.catalogs.get('lisbon')!, confirmed.supplierReference)
  assert.deepEqual([booking.channel, booking.reseller_key_id, booking.reseller_reference], ['octo', key.id, 'OTA-1001'])
})
