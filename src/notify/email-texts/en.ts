/**
 * The words of the guest's emails and calendar files in English: the catalogue the others
 * are typed by (`EmailTexts`), so a key one of them misses or adds is a type error, and
 * test/email/email-texts.test.ts fails on it too. Why typed modules and not i18next:
 * docs/languages.md, "Emails and calendar files".
 */
export const en = {
  /** The locale whose Intl writes this catalogue's dates, times and money, unless the booking's language names a region (pt-BR). */
  locale: 'en-GB',
  /** The operator's zone as the booking page names it: "Lisbon time" from the zone's city; Intl's name of the zone when the catalogue prefers it. */
  zone: ({ city }: ZoneNames) => (city === null ? null : `${city} time`),
  greeting: (name: string) => `Hello ${name},`,
  subjects: {
    requestReceived: 'Request received',
    confirmed: 'Booking confirmed',
    declined: 'Request declined',
    cancelled: 'Booking cancelled',
    departureCancelled: 'Departure cancelled',
    changed: 'Booking changed',
    reminder: 'See you soon',
  },
  paragraphs: {
    requestReceived: (instance: string) =>
      `Thank you: ${instance} has your request and will confirm or decline it soon. Your seats are kept meanwhile; nothing is due until you arrive.`,
    confirmed: 'Your booking is confirmed. The calendar file attached adds it to your calendar.',
    declined: (instance: string, reason: string | null) => `We are sorry: ${instance} could not accept your request.${reason ? ` ${reason}` : ''} Nothing is due.`,
    cancelledByGuest: 'Your booking is cancelled, as you asked.',
    cancelledByOperator: (instance: string) => `${instance} has cancelled your booking.`,
    cancellationFee: (fee: string) => `A cancellation fee of ${fee} applies, under the terms you booked with.`,
    noCancellationFee: 'No cancellation fee applies.',
    departureCancelled: (instance: string, reason: string | null) =>
      `We are sorry: ${instance} has cancelled this departure${reason ? ` (${reason})` : ''}, and with it your booking. No fee applies.`,
    changed: 'Your booking has changed; here it is as it stands now. The calendar file attached updates the event in your calendar.',
    reminder: (instance: string, meetingPoint: string | null) =>
      `A reminder of your booking with ${instance}.${meetingPoint ? ` Please be at ${meetingPoint} a few minutes before the start.` : ''}`,
  },
  facts: {
    booking: 'Booking',
    tour: 'Tour',
    when: 'When',
    /** The language the booking is guided in, named by Intl ("Portuguese"), where its tour is guided in several. */
    guidedIn: 'Guided in',
    meetingPoint: 'Meeting point',
    party: 'Party',
    ticket: 'Ticket',
    addon: 'Add-on',
    dueOnArrival: 'Total, due on arrival',
    /** After the units when a family ticket counts several people in one: "1 Family (4 people)". */
    people: (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`,
    /** A unit line of no charge, an infant's: "Infant × 1 (free)". */
    free: 'free',
  },
  terms: {
    leadBeforeConfirmation: 'Once it is confirmed, cancelling costs:',
    lead: 'Cancelling costs:',
    until: (moment: string) => `Until ${moment}`,
    untilStart: 'Until the start',
    fromNow: 'From now',
    afterThat: 'After that',
    notTurningUp: 'Not turning up',
    noLongerCancellable: 'it can no longer be cancelled',
    freeOfCharge: 'free of charge',
    /** `percent` is written by Intl in the catalogue's locale ("50%", "50 %"). */
    fee: (percent: string, amount: string) => `${percent} of the total, ${amount}`,
  },
  manage: {
    open: 'See or change your booking',
    closed: 'See your booking',
  },
  calendar: {
    booking: (code: string) => `Booking ${code}`,
    manage: 'Manage',
  },
  newsletter: {
    subject: (instance: string) => `Confirm your subscription to ${instance}`,
    greeting: 'Hello,',
    paragraph: (instance: string) =>
      `Someone, we hope you, asked to receive the newsletter of ${instance} at this address. Open the link within 7 days to confirm; if it was not you, ignore this message and nothing more will come.`,
    link: 'Confirm my subscription',
  },
}

/** The names of the operator's time zone a catalogue chooses from: its city ("Lisbon", null for Etc/ and UTC zones), and Intl's generic name in the locale, made only when asked for. */
export interface ZoneNames {
  city: string | null
  generic: () => string
}

export type EmailTexts = typeof en
