import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { formatInZone } from '../../domain/instant-format.ts'
import { NoBody } from '../../schemas/common.ts'
import { Me, PasswordResetAnswer, PasswordResetRequest, SetupRequest, SignInRequest, StaffAccount, StaffSignedIn } from '../../schemas/admin/staff.ts'
import { PASSWORD_RESET_LINK_HOURS } from '../../services/setup-links.ts'
import { STAFF_COOKIE, STAFF_SESSION_HOURS } from '../../services/staff-auth.ts'
import { PERMISSIONS, roleMay, type Permission } from '../../domain/roles.ts'
import { staffAccountView } from '../views.ts'

/** Sign-in, sign-out, the setup link, and who the caller is. */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/session', {
    schema: { body: SignInRequest, response: { 200: StaffSignedIn } },
    config: {
      access: 'public',
      rateClass: 'forms',
      summary: 'Sign in with email and password',
      description: 'Sets the td_staff cookie (HttpOnly, SameSite=Strict, Path=/admin). A wrong password, an unknown email and a disabled account all answer 401 invalid_credentials; five failures for one email within 15 minutes lock it for 15 minutes (429 with Retry-After, even with the right password).',
      errors: ['invalid_credentials', 'rate_limited'],
      responseHeaders: { 'Set-Cookie': `${STAFF_COOKIE}=<token>; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${STAFF_SESSION_HOURS * 3600}, and Secure over https` },
    },
  }, async (request, reply) => {
    const { instance } = request.catalog
    const signedIn = await app.tourdesk.staff.signIn(instance.ref, request.body.email, request.body.password, app.tourdesk.clock.now())
    reply.setCookie(STAFF_COOKIE, signedIn.token, {
      httpOnly: true, sameSite: 'strict', path: '/admin', secure: request.protocol === 'https', maxAge: STAFF_SESSION_HOURS * 3600,
    })
    reply.header('Cache-Control', 'no-store')
    return { user: signedIn.user, csrf_token: signedIn.csrfToken, expires_at: formatInZone(signedIn.expiresAt, instance.timezone) }
  })

  app.delete('/session', {
    schema: { body: NoBody, response: { 204: { type: 'null' } } },
    config: { access: 'signed-in', summary: 'Sign out: the session is deleted on the server', errors: ['csrf_missing', 'csrf_invalid'] },
  }, async (request, reply) => {
    const identity = request.staff!
    if (identity.sessionId) await app.tourdesk.staff.signOut(request.catalog.instance.ref, identity.sessionId)
    reply.clearCookie(STAFF_COOKIE, { path: '/admin' })
    return reply.code(204).send(null)
  })

  app.post('/setup', {
    schema: { body: SetupRequest, response: { 200: StaffAccount } },
    config: {
      access: 'public',
      rateClass: 'forms',
      summary: "Set an account's password with its setup link's token",
      description: 'The token is the part after # in the link `tourdesk staff add`, `tourdesk staff reset`, POST /staff, POST /staff/{id}/setup-link or POST /password-reset gave; '
        + "it works once, within 24 hours (an emailed reset link: one hour). It ends the account's sessions and clears a sign-in lockout of its email. Then sign in with POST /session.",
      errors: ['invalid_setup_token'],
    },
  }, async (request) => {
    const account = await app.tourdesk.staff.completeSetup(request.catalog.instance.ref, request.body.token, request.body.password, app.tourdesk.clock.now())
    return staffAccountView(account, request.catalog.instance.timezone)
  })

  app.post('/password-reset', {
    schema: { body: PasswordResetRequest, response: { 202: PasswordResetAnswer } },
    config: {
      access: 'public',
      rateClass: 'forms',
      summary: 'Forgot your password: email a one-time link to choose a new one',
      description: `When the address belongs to an account that is not disabled, a link (usable once, within ${PASSWORD_RESET_LINK_HOURS} hour; earlier unused links stop working) is emailed to it. `
        + 'The answer is the same 202 whether or not the address has an account. Five requests for one address within 15 minutes are allowed, counted apart from failed sign-ins '
        + '(429 with Retry-After). Without SMTP_URL nothing can be emailed: 409 email_not_set_up, whatever the address; a manager issues a link instead (POST /staff/{id}/setup-link).',
      errors: ['email_not_set_up', 'rate_limited'],
    },
  }, async (request, reply) => {
    await app.tourdesk.passwordResets.request(request.catalog, request.body.email, app.tourdesk.clock.now())
    reply.code(202).header('Cache-Control', 'no-store')
    return { detail: `If ${request.body.email.trim().toLowerCase()} has an account here, a link to choose a new password is on its way. It works once, within ${PASSWORD_RESET_LINK_HOURS} hour.` }
  })

  app.get('/me', {
    schema: { response: { 200: Me } },
    config: { access: 'signed-in', summary: 'The caller: a staff member or an API key, its role, permissions and instance' },
  }, async (request) => {
    const identity = request.staff!
    const { instance } = request.catalog
    return {
      kind: identity.kind,
      id: identity.id,
      name: identity.name,
      email: identity.email,
      role: identity.role,
      permissions: (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleMay(identity.role, p)),
      instance: { prefix: instance.prefix, ref: instance.ref, name: instance.name, timezone: instance.timezone, currency: instance.currency },
      email_enabled: app.tourdesk.emailSettings.smtpUrl !== null,
    }
  })
}
