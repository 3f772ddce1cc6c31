import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toStoredInstant } from '../domain/instant-format.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { ApiError } from '../errors/api-error.ts'
import { NewsletterConfirmation, NewsletterReceipt, NewsletterRequest } from '../schemas/forms.ts'
import { NEWSLETTER_TOKEN_PURPOSE } from '../notify/email-outbox.ts'
import { readSignedToken } from '../services/signed-token.ts'

export const newsletterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/newsletter', {
    schema: { body: NewsletterRequest, response: { 200: NewsletterReceipt } },
    config: {
      rateClass: 'forms',
      session: 'read',
      summary: 'Sign up to the newsletter; the answer never tells whether the address was already subscribed',
      description: 'Keeps the sign-up with when and where it was given, and subscribes the address; with double opt-in (the instance setting '
        + 'newsletter_double_opt_in, on by default when the service can send email) it sends a confirmation email instead, and the address is '
        + 'subscribed when its link (GET /newsletter/confirm) is opened. The answer is the same for a new address, one already subscribed and a '
        + 'sign-up that fills a decoy field (which subscribes nothing and sends nothing).',
    },
  }, async (request) => {
    const catalog = request.catalog
    const { instance } = catalog
    const body = request.body
    const now = app.tourdesk.clock.now()
    const id = randomUUID()
    const email = body.email.trim().toLowerCase()
    const { emails } = app.tourdesk
    await app.tourdesk.store.forms.recordNewsletterSignup({
      id,
      instance_id: instance.ref,
      email,
      name: body.name?.trim() || null,
      session_id: request.session?.id ?? null,
      promo_code: body.promo_code?.trim() || null,
      referral_code: body.referral_code?.trim() || null,
      source: request.headers.origin ?? 'api',
      spam: fillsDecoy(instance, body) ? 1 : 0,
      consented_at: toStoredInstant(now),
    }, emails.doubleOptIn(catalog) ? () => emails.newsletterConfirmation(catalog, { id, email }, now) : null)
    return { status: 'subscribed' as const }
  })

  app.get('/newsletter/confirm', {
    schema: { querystring: NewsletterConfirmation, response: { 200: NewsletterReceipt } },
    config: {
      rateClass: 'forms',
      errors: ['not_found'],
      summary: 'Confirm a newsletter sign-up (the link of the confirmation email)',
      description: 'With double opt-in (the instance setting newsletter_double_opt_in, on by default when the service can send email), a sign-up '
        + 'subscribes its address only once the link in its confirmation email is opened; the link works for 7 days, and opening it again '
        + 'answers the same. A link that is not valid, or has run out, is 404 not_found: sign up again for a new one.',
    },
  }, async (request) => {
    const { ref } = request.catalog.instance
    const now = app.tourdesk.clock.now()
    const signupId = readSignedToken(app.tourdesk.secret, NEWSLETTER_TOKEN_PURPOSE, ref, request.query.token, now)
    if (signupId === null || !(await app.tourdesk.store.forms.confirmNewsletterSignup(ref, signupId, toStoredInstant(now)))) {
      throw new ApiError('not_found', 'This confirmation link is not valid or has run out (links work for 7 days): sign up again for a new one')
    }
    return { status: 'subscribed' as const }
  })
}
