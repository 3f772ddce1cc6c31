import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { fillsDecoy } from '../http/decoys.ts'
import { NewsletterConfirmation, NewsletterReceipt, NewsletterRequest } from '../schemas/forms.ts'

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
    const sender = { sessionId: request.session?.id ?? null, spam: fillsDecoy(request.catalog.instance, request.body) }
    await app.tourdesk.forms.signUp(request.catalog, sender, request.body, request.headers.origin ?? 'api', app.tourdesk.clock.now())
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
    await app.tourdesk.forms.confirmSignUp(request.catalog, request.query.token, app.tourdesk.clock.now())
    return { status: 'subscribed' as const }
  })
}
