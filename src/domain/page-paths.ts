/** Where an instance's booking page is served (src/web/booking-page.ts); `?tour=<id>` opens one tour. */
export function bookingPagePath(prefix: string): string {
  return `/book/${prefix}/`
}

/** The same page, showing the guest's booking; a manage link carries its token after `#`. */
export function managePagePath(prefix: string): string {
  return `${bookingPagePath(prefix)}manage`
}

/**
 * Where a staff member sets a password: the back office's setup page, with the token after
 * `#` so that it never reaches a server's access log or a Referer header.
 */
export function setupLink(origin: string, prefix: string, token: string): string {
  return `${origin}/admin/${prefix}/setup#${token}`
}
