/**
 * What happened to the guest's email after a change, said as it is (issue 25, item 4): told;
 * not sent because this service sends no email (SMTP_URL unset: the message is kept as not
 * sent); not sent because the guest has no address or asked not to be emailed. A quarantined
 * booking, or one whose contact was erased, is emailed nothing, and nothing is said.
 */
export function guestEmailNote(booking: { contact: { email: string | null } | null, quarantined: boolean }, emailEnabled: boolean,
  options: { asked?: boolean, told?: string } = {}): string {
  const { asked = true, told = 'The guest is told by email.' } = options
  if (booking.quarantined || booking.contact === null) return ''
  if (!asked) return ' The guest is not emailed, as asked.'
  if (booking.contact.email === null) return ' The guest has no email address and is not emailed: tell them yourself.'
  if (!emailEnabled) return ' The guest is not emailed: email is not set up on this service (see Settings). Tell them yourself.'
  return ` ${told}`
}
