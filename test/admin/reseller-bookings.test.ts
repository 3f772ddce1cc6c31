import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../helpers/cli.ts'
import { parseCsv } from '../helpers/csv.ts'
import type { TestService } from '../helpers/build.ts'
import { OctoClient } from '../octo/octo-client.ts'
import { ALFAMA_TUE, guestBooking, operatorService } from './bookings-fixtures.ts'

// The operator's side of reseller bookings (docs/resellers.md, "On the operator's side"): a
// booking a reseller made through the OCTo API, seen in the operator's list, detail, CSV
// export, manifest and the per-reseller summary, over real HTTP.

const ALFAMA_0930 = '2026-06-02T09:30:00+01:00'
const ALFAMA_1400 = '2026-06-02T14:00:00+01:00'
const FADO_2030 = '2026-06-02T20:30:00+01:00'

async function resellerKey(service: TestService, name: string, commission: number) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { key, secret } = await service.context.staff.createKey(catalog.instance.ref, { name, role: 'reseller', commission_percent: commission },
    { type: 'system', id: null, name: 'test' }, service.clock.now())
  return { keyId: key.id, octo: new OctoClient(service, 'lisbon', secret) }
}

/** Reserves and confirms through the OCTo API; answers the confirmed OCTo booking. */
async function resellerBooking(octo: OctoClient, uuid: string, productId: string, availabilityId: string, people: number, resellerReference?: string) {
  const unitItems = Array.from({ length: people }, () => ({ unitId: 'person' }))
  const reserved = await octo.request('POST', '/bookings', '/bookings/', { uuid, productId, optionId: 'DEFAULT', availabilityId, unitItems, resellerReference })
  assert.equal(reserved.status, 200, JSON.stringify(reserved.body))
  const confirmed = await octo.request('POST', `/bookings/${uuid}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Mia Berg', emailAddress: 'mia@example.se' } })
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
  return confirmed.body
}

test("a reseller's booking in the operator's list, detail, filters and CSV export: its reseller, reference and net, nothing due on arrival", async (t) => {
  const { service, staff } = await operatorService(t)
  const ota = await resellerKey(service, 'Lisbon OTA', 20)
  const sold = await resellerBooking(ota.octo, '7d0c5e2a-0001-4b1e-8f00-000000000001', 'alfama-walk', ALFAMA_0930, 2, 'OTA-REF-1')
  const guest = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })

  const octoOnly = await staff.get('/bookings?channel=octo')
  assert.equal(octoOnly.status, 200, octoOnly.text)
  assert.deepEqual(octoOnly.body.bookings.map((b: any) => b.code), [sold.supplierReference])
  const [listed] = octoOnly.body.bookings
  assert.equal(listed.channel, 'octo')
  assert.deepEqual(listed.reseller, { key_id: ota.keyId, name: 'Lisbon OTA', reference: 'OTA-REF-1', notes: null, commission_percent: 20, net: 3040 })
  assert.deepEqual([listed.price.total, listed.price.due_on_arrival], [3800, 0], 'its guest paid the reseller')
  assert.deepEqual((await staff.get('/bookings?channel=web')).body.bookings.map((b: any) => [b.code, b.reseller]), [[guest.booking.code, null]])
  assert.deepEqual((await staff.get(`/bookings?reseller=${ota.keyId}`)).body.bookings.map((b: any) => b.code), [sold.supplierReference])
  assert.deepEqual((await staff.get('/bookings?reseller=no-such-key')).body.bookings, [])
  const badChannel = await staff.get('/bookings?channel=fax')
  assert.deepEqual([badChannel.status, badChannel.body.code], [400, 'validation_failed'])

  const detail = await staff.get(`/bookings/${sold.supplierReference}`)
  assert.equal(detail.status, 200, detail.text)
  assert.deepEqual(detail.body.reseller, listed.reseller)
  // A staff action answers the same record: the reseller is named however the booking is read.
  const noted = await staff.patch(`/bookings/${sold.supplierReference}`, { internal_note: 'sold by the OTA' })
  assert.deepEqual(noted.body.reseller, listed.reseller)

  const csv = parseCsv((await staff.get('/exports/bookings.csv')).text)
  assert.deepEqual(csv[0].slice(-6), ['seats', 'units', 'reseller', 'reseller_reference', 'reseller_net', 'language'], 'new columns come last')
  const byCode = new Map(csv.slice(1).map((row) => [row[0], Object.fromEntries(csv[0].map((name, i) => [name, row[i]]))]))
  const resold = byCode.get(sold.supplierReference)!
  assert.deepEqual([resold.channel, resold.reseller, resold.reseller_reference, resold.reseller_net], ['octo', 'Lisbon OTA', 'OTA-REF-1', '30.40'])
  const direct = byCode.get(guest.booking.code)!
  assert.deepEqual([direct.channel, direct.reseller, direct.reseller_reference, direct.reseller_net], ['web', '', '', ''])
  assert.deepEqual(parseCsv((await staff.get(`/exports/bookings.csv?reseller=${ota.keyId}`)).text).slice(1).map((row) => row[0]), [sold.supplierReference])

  // The key revoked: its bookings keep its name.
  await staff.delete(`/api-keys/${ota.keyId}`)
  assert.equal((await staff.get(`/bookings/${sold.supplierReference}`)).body.reseller.name, 'Lisbon OTA')
})

test("the manifest says a reseller's booking is paid via the reseller and counts nothing to collect for it", async (t) => {
  const { service, staff } = await operatorService(t)
  const ota = await resellerKey(service, 'Lisbon OTA', 20)
  const sold = await resellerBooking(ota.octo, '7d0c5e2a-0002-4b1e-8f00-000000000002', 'alfama-walk', ALFAMA_0930, 2, 'OTA-REF-2')
  const guest = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  const path = `/departures/alfama-walk/${encodeURIComponent(ALFAMA_0930)}`

  const manifest = await staff.get(path)
  assert.equal(manifest.status, 200, manifest.text)
  const entry = manifest.body.manifest.find((e: any) => e.code === sold.supplierReference)
  assert.deepEqual([entry.channel, entry.due_on_arrival, entry.reseller.name, entry.reseller.net], ['octo', 0, 'Lisbon OTA', 3040])
  assert.equal(manifest.body.totals.guests, 3, 'its guests are expected like any other')
  assert.equal(manifest.body.totals.due_on_arrival, guest.booking.price.due_on_arrival, 'only the guest who booked directly pays on arrival')

  const csv = parseCsv((await staff.get(path, { accept: 'text/csv' })).text)
  assert.deepEqual(csv[0].slice(-5), ['channel', 'reseller', 'reseller_reference', 'reseller_net', 'language'])
  const row = csv.find((r) => r[0] === sold.supplierReference)!
  assert.deepEqual([row[csv[0].indexOf('due_on_arrival')], ...row.slice(-5)], ['0.00', 'octo', 'Lisbon OTA', 'OTA-REF-2', '30.40', 'en'])

  const cli = await runCli(['manifest', '--instance', 'lisbon', '--tour', 'alfama-walk', '--start', '2026-06-02 09:30', '--format', 'table'], { env: { DATABASE_URL: service.databaseUrl } })
  assert.equal(cli.code, 0, cli.stderr)
  assert.match(cli.stdout, /paid via Lisbon OTA/)
  assert.match(cli.stdout.split('\n')[0], /€19\.00 due on arrival$/, "the heading's amount leaves the reseller's booking out")
})

test('the per-reseller summary: one line per reseller over a range of departure dates, its sales, commission and net, by API and CLI', async (t) => {
  const { service, staff } = await operatorService(t)
  const ota = await resellerKey(service, 'Lisbon OTA', 20)
  const harbor = await resellerKey(service, 'Harbor Resale', 12.5)
  await resellerKey(service, 'Idle Agent', 10)
  await resellerBooking(ota.octo, '7d0c5e2a-0003-4b1e-8f00-000000000003', 'alfama-walk', ALFAMA_0930, 2, 'OTA-1')
  // 1900 at 12.5 %: 1662.5, rounded half up per booking as OCTo showed it, twice.
  await resellerBooking(harbor.octo, '7d0c5e2a-0004-4b1e-8f00-000000000004', 'alfama-walk', ALFAMA_1400, 1)
  await resellerBooking(harbor.octo, '7d0c5e2a-0005-4b1e-8f00-000000000005', 'alfama-walk', ALFAMA_1400, 1)
  // On request: pending, not sold yet, so not invoiced.
  const pending = await resellerBooking(harbor.octo, '7d0c5e2a-0006-4b1e-8f00-000000000006', 'fado-night', FADO_2030, 2)
  assert.equal(pending.status, 'PENDING')
  // Cancelled: left out.
  await resellerBooking(ota.octo, '7d0c5e2a-0007-4b1e-8f00-000000000007', 'alfama-walk', ALFAMA_1400, 3)
  await ota.octo.request('POST', '/bookings/7d0c5e2a-0007-4b1e-8f00-000000000007/cancel', '/bookings/{uuid}/cancel', {})
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4 })

  const res = await staff.get('/exports/resellers.csv?from=2026-06-01&to=2026-06-30')
  assert.equal(res.status, 200, res.text)
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8')
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="resellers-lisbon-2026-06-01-2026-06-30.csv"')
  const expected = [
    ['reseller_key_id', 'reseller', 'currency', 'bookings', 'guests', 'retail', 'commission', 'net'],
    ...[[ota.keyId, 'Lisbon OTA', 'EUR', '1', '2', '38.00', '7.60', '30.40'], [harbor.keyId, 'Harbor Resale', 'EUR', '2', '2', '38.00', '4.74', '33.26']]
      .sort((a, b) => a[0] < b[0] ? -1 : 1),
  ]
  assert.deepEqual(parseCsv(res.text), expected)
  assert.deepEqual(parseCsv((await staff.get('/exports/resellers.csv?from=2026-06-03&to=2026-06-30')).text), [expected[0]], 'departures outside the range count for nothing')

  const missing = await staff.get('/exports/resellers.csv?from=2026-06-01')
  assert.deepEqual([missing.status, missing.body.code], [400, 'validation_failed'])
  const backwards = await staff.get('/exports/resellers.csv?from=2026-06-30&to=2026-06-01')
  assert.deepEqual([backwards.status, backwards.body.code], [400, 'validation_failed'])

  const cli = await runCli(['resellers', 'summary', '--instance', 'lisbon', '--from', '2026-06-01', '--to', '2026-06-30', '--format', 'csv'], { env: { DATABASE_URL: service.databaseUrl } })
  assert.equal(cli.code, 0, cli.stderr)
  assert.equal(cli.stdout, res.text, 'the CLI writes the same CSV')
  const json = await runCli(['resellers', 'summary', '--instance', 'lisbon', '--from', '2026-06-01', '--to', '2026-06-30', '--format', 'json'], { env: { DATABASE_URL: service.databaseUrl } })
  assert.deepEqual(JSON.parse(json.stdout).map((line: any) => [line.reseller, line.net]).sort(), [['Harbor Resale', '33.26'], ['Lisbon OTA', '30.40']])
})
