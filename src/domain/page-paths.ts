/** Where an instance's booking page is served (src/web/booking-page.ts); `?tour=<id>` opens one tour. */
export function bookingPagePath(prefix: string): string {
  return `/book/${prefix}/`
}

/** The same page, showing the guest's booking; a manage link carries its token after `#`. */
export function managePagePath(prefix: string): string {
  return `${bookingPagePath(prefix)}manage`
}
