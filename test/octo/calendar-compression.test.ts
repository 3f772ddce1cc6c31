import assert from 'node:assert/strict'
import { test } from 'node:test'
import { acceptsGzip } from '../../src/http/compressed-answer.ts'
import { build, type TestService } from '../helpers/build.ts'
import { testDialect } from '../helpers/database.ts'
import { checkAgainstOcto } from './octo-client.ts'

// Kept OCTo answers go gzipped to a reseller whose client takes gzip (src/http/compressed-answer.ts):
// the same JSON in a fraction of the bytes, and Vary: Accept-Encoding for caches on the way.

const NINETY_DAYS = { productId: 'alfama-walk', optionId: 'DEFAULT', localDateStart: '2026-06-01', localDateEnd: '2026-08-29' }

async function poll(service: TestService, key: string, path: string, acceptEncoding: string) {
  const res = await fetch(`${service.origin}/octo/lisbon${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'octo-capabilities': 'octo/pricing', 'accept-encoding': acceptEncoding },
    body: JSON.stringify(NINETY_DAYS),
  })
  // fetch undoes the gzip; the header says whether it was there.
  const body = await res.json()
  await checkAgainstOcto('POST', path === '/availability' ? '/availability/' : path, res.status, body)
  return { status: res.status, encoding: res.headers.get('content-encoding'), vary: res.headers.get('vary') ?? '', body }
}

test(`a reseller whose client takes gzip gets the 90-day calendar and availability gzipped, the same JSON (${testDialect})`, async (t) => {
  const service = await build(t)
  const lisbon = service.context.catalogs.get('lisbon')!.instance.ref
  const { secret } = await service.context.staff.createKey(lisbon, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  for (const path of ['/availability/calendar', '/availability']) {
    const plain = await poll(service, secret, path, 'identity')
    assert.equal(plain.status, 200)
    assert.equal(plain.encoding, null, `${path}: identity asked, none given`)
    assert.match(plain.vary, /Accept-Encoding/, `${path}: the answer varies on Accept-Encoding`)
    for (const asked of ['gzip', 'br;q=1, gzip;q=0.5', '*']) {
      const compressed = await poll(service, secret, path, asked)
      assert.equal(compressed.encoding, 'gzip', `${path} with ${asked}`)
      assert.deepEqual(compressed.body, plain.body, `${path} with ${asked}: the same answer`)
    }
    assert.equal((await poll(service, secret, path, 'gzip;q=0, *')).encoding, null, `${path}: gzip refused by q=0`)
  }
})

test('Accept-Encoding takes gzip when it names gzip (or x-gzip, any case) above q=0, or * above q=0 without naming gzip', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false], ['', false], ['identity', false], ['br, deflate', false], ['gzip', true], ['GZip', true], ['x-gzip', true],
    ['gzip;q=0', false], ['gzip; q=0.001', true], ['*', true], ['*;q=0', false], ['gzip;q=0, *', false], ['br;q=1.0, gzip;q=0.8', true],
  ]
  for (const [header, expected] of cases) assert.equal(acceptsGzip(header), expected, String(header))
})
