/**
 * Every page path and link the service hands out, in one place: answers, emails and the CLI
 * build links from these, and the surfaces that serve the pages (src/web/, src/api/) register
 * the same paths. `origin` is TOURDESK_PUBLIC_URL, or what the server listens on.
 */

/** Where an instance's booking page is served (src/web/booking-page.ts); `?tour=<id>` opens one tour. */
export function bookingPagePath(prefix: string): string {
  return `/book/${prefix}/`
}

/** The same page, showing the guest's booking; a manage link carries its token after `#`. */
export function managePagePath(prefix: string): string {
  return `${bookingPagePath(prefix)}manage`
}

/** `<origin>/book/<prefix>/manage#<token>`: the fragment never reaches a server or a Referer. */
export function manageLink(origin: string, prefix: string, token: string): string {
  return `${origin}${managePagePath(prefix)}#${token}`
}

/** Where an instance's back office is served (src/web/admin-page.ts); every path below it is the same document (the page routes itself). */
export function backOfficePath(prefix: string): string {
  return `/admin/${prefix}/`
}

/** The back office's pages an email or an email action points an operator to. */
export const backOfficePaths = {
  booking: (prefix: string, codeOrId: string) => `${backOfficePath(prefix)}bookings/${encodeURIComponent(codeOrId)}`,
  departure: (prefix: string, tourId: string, start: string) => `${backOfficePath(prefix)}departures/${encodeURIComponent(tourId)}/${encodeURIComponent(start)}`,
  webhook: (prefix: string, webhookId: string) => `${backOfficePath(prefix)}settings/webhooks/${webhookId}`,
}

/**
 * Where a staff member sets a password: the back office's setup page, with the token after
 * `#` so that it never reaches a server's access log or a Referer header.
 */
export function setupLink(origin: string, prefix: string, token: string): string {
  return `${origin}${backOfficePath(prefix)}setup#${token}`
}

/** The page of an operator email's one-click confirm or decline (src/web/email-action-page.ts). */
export function emailActionPath(prefix: string, token: string): string {
  return `${backOfficePath(prefix)}email-actions/${token}`
}

/** The link of a newsletter sign-up's confirmation email (GET /newsletter/confirm, src/api/newsletter.ts). */
export function newsletterConfirmLink(origin: string, prefix: string, token: string): string {
  return `${origin}/api/${prefix}/newsletter/confirm?token=${token}`
}
