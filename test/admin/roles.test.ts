import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { ROLES, roleMay, type Permission, type Role } from '../../src/domain/roles.ts'
import { build, type TestService } from '../helpers/build.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'

interface Operation {
  method: string
  path: string
  access: Permission | 'public' | 'signed-in'
}

/** Every operator route as the app registered it, with the access rule it declared. */
function operatorRoutes(service: TestService): Operation[] {
  const routes: Operation[] = []
  for (const route of service.app.operatorRoutes ?? []) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      routes.push({ method, path: route.url.slice('/admin/api/:instance'.length), access: route.config?.access as Operation['access'] })
    }
  }
  return routes
}

/** A concrete URL for a route pattern; the ids need not exist: access is decided before the resource is looked up. */
function concretePath(path: string): string {
  return path
    .replace(':tour_id', 'alfama-walk')
    .replace(':start', encodeURIComponent('2026-06-02T09:30:00+01:00'))
    .replace(/:[a-z_]+/g, 'ZZZZ99')
}

function expectedFor(role: Role | null, access: Operation['access']): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed'
  if (role === null) return 401
  if (access === 'signed-in') return 'allowed'
  return roleMay(role, access) ? 'allowed' : 403
}

test('every operator route declares an access rule, and each role gets exactly what the role table grants', async (t) => {
  const service = await build(t)
  const routes = operatorRoutes(service)
  assert.ok(routes.length >= 4, `operator routes found: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`)
  for (const route of routes) assert.ok(route.access !== undefined, `${route.method} ${route.path} declares no access rule`)

  const clients = new Map<Role | null, OperatorClient>([[null, new OperatorClient(service.origin, 'lisbon')]])
  for (const role of ROLES) clients.set(role, (await apiKeyClient(service, role)).client)
  const staffManager = (await signedInStaff(service, 'manager')).client

  for (const route of routes) {
    for (const [role, client] of clients) {
      const expected = expectedFor(role, route.access)
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {}
      const res = await client.request(route.method, concretePath(route.path), body)
      const label = `${role ?? 'no credential'} ${route.method} ${route.path} (${route.access})`
      if (expected === 'allowed') {
        assert.ok(res.status !== 401 && res.status !== 403, `${label}: answered ${res.status} ${res.text.slice(0, 200)}`)
      } else {
        assert.equal(res.status, expected, `${label}: ${res.text.slice(0, 200)}`)
        assert.equal(res.body.code, expected === 401 ? 'unauthenticated' : 'forbidden', label)
        if (expected === 401) assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tourdesk"', label)
      }
    }
    // A staff session's write without its CSRF token is refused before anything else is looked at.
    if (route.method !== 'GET' && route.access !== 'public') {
      const res = await staffManager.request(route.method, concretePath(route.path), route.method === 'DELETE' ? undefined : {}, { 'x-csrf-token': '' })
      assert.equal(res.status, 403, `${route.method} ${route.path} without CSRF: ${res.text.slice(0, 200)}`)
      assert.equal(res.body.code, 'csrf_missing')
    }
  }
})

test('the operator API describes itself in its own OpenAPI 3.1 document, and the guest document lists no operator route', async (t) => {
  const service = await build(t)
  const operator = await new OperatorClient(service.origin, 'lisbon').get('/openapi.json')
  assert.equal(operator.status, 200)
  const validator = new Validator()
  const result = await validator.validate(structuredClone(operator.body))
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  assert.deepEqual(operator.body.servers, [{ url: `${service.origin}/admin/api/lisbon`, description: 'Alfama & Tejo Tours', 'x-internal': true }])
  const documented = new Set(Object.entries(operator.body.paths as Record<string, object>)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)))
  for (const route of operatorRoutes(service)) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}') || '/'
    assert.ok(documented.has(`${route.method} ${path}`), `${route.method} ${path} is documented`)
  }
  assert.ok('unauthenticated' in operator.body['x-error-codes'])

  const guest = await service.client().get('/openapi.json')
  assert.ok(Object.keys(guest.body.paths).every((path) => !path.includes('admin')))
  assert.ok(!('unauthenticated' in guest.body['x-error-codes']), 'operator error codes stay out of the guest document')
})

test('TOURDESK_ADMIN=off: everything under /admin answers 404', async (t) => {
  const service = await build(t, { admin: false })
  const res = await new OperatorClient(service.origin, 'lisbon').post('/session', { email: 'a@example.com', password: 'x'.repeat(12) })
  assert.equal(res.status, 404)
  assert.equal(res.body.code, 'not_found')
  assert.equal((await new OperatorClient(service.origin, 'lisbon').get('/openapi.json')).status, 404)
})
