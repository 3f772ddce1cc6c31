import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ApiError } from '../../errors/api-error.ts'
import { runIdempotent } from '../../http/idempotency.ts'
import { NoBody } from '../../schemas/common.ts'
import { PageQuery } from '../../schemas/admin/page.ts'
import { ApiKey, ApiKeyList, NewApiKeyAnswer, NewApiKeyRequest, StaffIdParams } from '../../schemas/admin/staff.ts'
import { actorOf } from '../../services/staff-auth.ts'
import { pageOf } from '../list-cursor.ts'
import { apiKeyView } from '../views.ts'

/** API keys for integrations (docs/operator-api.md, "Credentials"); managers only. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { staff, store, clock } = app.tourdesk

  app.get('/api-keys', {
    schema: { querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), response: { 200: ApiKeyList } },
    config: {
      access: 'access.manage',
      summary: 'API keys, oldest first, revoked ones included',
      description: 'A key is shown by its first 8 characters (prefix); the secret itself is never stored, only its hash.',
    },
  }, async (request) => {
    const { instance } = request.catalog
    const page = pageOf(await store.staff.listKeys(instance.ref), (row) => [row.created_at, row.id], request.query)
    return { api_keys: page.items.map((row) => apiKeyView(row, instance.timezone)), next_cursor: page.nextCursor }
  })

  app.post('/api-keys', {
    schema: { body: NewApiKeyRequest, response: { 201: NewApiKeyAnswer } },
    config: {
      access: 'access.manage',
      idempotent: true,
      summary: 'Create an API key; the answer shows its secret, this once',
      description: 'Send the secret as Authorization: Bearer <secret>. The key has one role and belongs to this instance. '
        + 'A reseller key (role reseller) works only on the OCTo API at /octo/<prefix>, for the tours of products (left out: every tour) at commission_percent (default 0); docs/resellers.md. '
        + 'Idempotency-Key: only the hash of the secret is stored, so a success is not kept for replay (a retry after a lost answer makes a second key: '
        + 'revoke the one whose secret you never saw). A retry while the first runs is 409 idempotency_in_flight; a refusal is replayed as usual.',
      errors: ['idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    const { instance } = request.catalog
    reply.code(201).header('Cache-Control', 'no-store')
    return runIdempotent(request, reply, async () => {
      const { key, secret } = await staff.createKey(instance.ref, request.body, actorOf(request.staff!), clock.now(), request.id)
      return { api_key: apiKeyView(key, instance.timezone), secret }
    }, 201)
  })

  app.delete('/api-keys/:id', {
    schema: { params: StaffIdParams, body: NoBody, response: { 200: ApiKey } },
    config: {
      access: 'access.manage',
      summary: 'Revoke an API key: its next request is 401',
      description: 'Answers the revoked key. Revoking a key that is already revoked answers it unchanged; keys are kept (revoked) for the audit log.',
    },
  }, async (request) => {
    const { instance } = request.catalog
    try {
      return apiKeyView(await staff.revokeKey(instance.ref, request.params.id, actorOf(request.staff!), clock.now(), request.id), instance.timezone)
    } catch (err) {
      // The service revokes live keys only; an earlier revocation already took effect.
      const revoked = err instanceof ApiError && err.code === 'not_found'
        ? (await store.staff.listKeys(instance.ref)).find((key) => key.id === request.params.id && key.revoked_at !== null)
        : undefined
      if (!revoked) throw err
      return apiKeyView(revoked, instance.timezone)
    }
  })
}
