import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { runIdempotent } from '../../http/idempotency.ts'
import { NoBody } from '../../schemas/common.ts'
import { PageQuery } from '../../schemas/admin/page.ts'
import { NewStaffAnswer, NewStaffRequest, StaffAccount, StaffChange, StaffIdParams, StaffList, StaffSetupLink } from '../../schemas/admin/staff.ts'
import { actorOf } from '../../services/staff-auth.ts'
import { pageOf } from '../list-cursor.ts'
import { setupLink } from '../../domain/links.ts'
import { staffAccountView } from '../views.ts'

const KEPT_FOR_THE_AUDIT = 'Accounts are never deleted: the audit log names them as actors, so DELETE disables the account instead.'
const LAST_MANAGER = 'The last active manager of the instance cannot be disabled or demoted (409 last_manager); concurrent requests are serialised, so two managers demoting each other leave one.'

/** Staff accounts of the instance (docs/operator-api.md, "Audit, privacy and access"); managers only. */
export const staffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { staff, store, clock } = app.tourdesk
  const change = (request: FastifyRequest, id: string, changes: { role?: StaffAccount['role'], disabled?: boolean }) =>
    staff.updateStaff(request.catalog.instance.ref, id, changes, actorOf(request.staff!), clock.now(), request.id)

  app.get('/staff', {
    schema: { querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), response: { 200: StaffList } },
    config: {
      access: 'access.manage',
      summary: 'Staff accounts, oldest first',
      description: `Disabled accounts are listed too. ${KEPT_FOR_THE_AUDIT}`,
    },
  }, async (request) => {
    const { instance } = request.catalog
    const page = pageOf(await store.staff.list(instance.ref), (row) => [row.created_at, row.id], request.query)
    return { staff: page.items.map((row) => staffAccountView(row, instance.timezone)), next_cursor: page.nextCursor }
  })

  app.post('/staff', {
    schema: { body: NewStaffRequest, response: { 201: NewStaffAnswer } },
    config: {
      access: 'access.manage',
      idempotent: true,
      summary: 'Add a staff account; answers a one-time setup link',
      description: 'The person opens the setup link (valid 24 hours, usable once) to set a password, then signs in. The email is unique per instance whatever its case (409 staff_exists). '
        + 'Idempotency-Key: the answer holds the setup token, which is never stored, so a success is not kept for replay; a retry after a lost answer gets 409 staff_exists '
        + '(POST /staff/{id}/setup-link gives a new link). A refusal is replayed as usual.',
      errors: ['staff_exists', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    const { instance } = request.catalog
    reply.code(201).header('Cache-Control', 'no-store')
    return runIdempotent(request, reply, async () => {
      const added = await staff.addStaff(instance.ref, request.body, actorOf(request.staff!), clock.now(), request.id)
      return {
        staff: staffAccountView(added.staff, instance.timezone),
        // TOURDESK_PUBLIC_URL, never the request's Host: a forged Host would point the link elsewhere.
        setup_link: setupLink(app.tourdesk.emailSettings.publicUrl, instance.prefix, added.setupToken!),
      }
    }, 201)
  })

  app.post('/staff/:id/setup-link', {
    schema: { params: StaffIdParams, body: NoBody, response: { 201: StaffSetupLink } },
    config: {
      access: 'access.manage',
      summary: 'A new one-time setup link for an account, for a forgotten password or a lost first link',
      description: 'The link works once, within 24 hours; earlier unused links of the account stop working. The present password keeps working until the link is used: '
        + "setting the new password ends the account's sessions and clears a sign-in lockout of its email. Give the link to the person yourself; it is not emailed. "
        + 'A disabled account is refused (409 staff_disabled): enable it first. Audited as staff.setup_link_issued.',
      errors: ['staff_disabled'],
    },
  }, async (request, reply) => {
    const { instance } = request.catalog
    const issued = await app.tourdesk.setupLinks.issue(instance.ref, request.params.id, actorOf(request.staff!), clock.now(), request.id)
    reply.code(201).header('Cache-Control', 'no-store')
    return { staff: staffAccountView(issued.staff, instance.timezone), setup_link: setupLink(app.tourdesk.emailSettings.publicUrl, instance.prefix, issued.setupToken) }
  })

  app.patch('/staff/:id', {
    schema: { params: StaffIdParams, body: StaffChange, response: { 200: StaffAccount } },
    config: {
      access: 'access.manage',
      summary: "Change an account's role, or disable or enable it",
      description: `Disabling ends the account's sessions at once. ${LAST_MANAGER}`,
      errors: ['last_manager'],
    },
  }, async (request) => staffAccountView(await change(request, request.params.id, request.body), request.catalog.instance.timezone))

  app.delete('/staff/:id', {
    schema: { params: StaffIdParams, body: NoBody, response: { 200: StaffAccount } },
    config: {
      access: 'access.manage',
      summary: 'Remove an account: it is disabled and its sessions end',
      description: `${KEPT_FOR_THE_AUDIT} It answers the disabled account; PATCH {"disabled": false} enables it again. Repeating it answers the same. ${LAST_MANAGER}`,
      errors: ['last_manager'],
    },
  }, async (request) => {
    const { instance } = request.catalog
    // Already disabled: the removal took effect before, and the audit log shows no change that did not happen.
    const account = await store.staff.findById(instance.ref, request.params.id)
    if (account?.disabled === 1) return staffAccountView(account, instance.timezone)
    return staffAccountView(await change(request, request.params.id, { disabled: true }), instance.timezone)
  })
}
