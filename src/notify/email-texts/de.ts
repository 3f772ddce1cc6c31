import type { EmailTexts } from './en.ts'

/** German, addressing the guest as Sie (src/notify/email-texts/en.ts says what each text is). */
export const de: EmailTexts = {
  locale: 'de-DE',
  zone: ({ generic }) => generic(),
  greeting: (name) => `Hallo ${name},`,
  subjects: {
    requestReceived: 'Anfrage erhalten',
    confirmed: 'Buchung bestätigt',
    declined: 'Anfrage abgelehnt',
    cancelled: 'Buchung storniert',
    departureCancelled: 'Termin abgesagt',
    changed: 'Buchung geändert',
    reminder: 'Bis bald',
  },
  paragraphs: {
    requestReceived: (instance) =>
      `Vielen Dank: ${instance} hat Ihre Anfrage erhalten und wird sie in Kürze bestätigen oder ablehnen. Ihre Plätze bleiben so lange reserviert; bis zu Ihrer Ankunft ist nichts zu zahlen.`,
    confirmed: 'Ihre Buchung ist bestätigt. Mit der angehängten Kalenderdatei tragen Sie sie in Ihren Kalender ein.',
    declined: (instance, reason) => `Es tut uns leid: ${instance} konnte Ihre Anfrage nicht annehmen.${reason ? ` ${reason}` : ''} Es ist nichts zu zahlen.`,
    cancelledByGuest: 'Ihre Buchung ist wie gewünscht storniert.',
    cancelledByOperator: (instance) => `${instance} hat Ihre Buchung storniert.`,
    cancellationFee: (fee) => `Gemäß den Bedingungen Ihrer Buchung fällt eine Stornogebühr von ${fee} an.`,
    noCancellationFee: 'Es fällt keine Stornogebühr an.',
    departureCancelled: (instance, reason) =>
      `Es tut uns leid: ${instance} hat diesen Termin abgesagt${reason ? ` (${reason})` : ''} und damit auch Ihre Buchung storniert. Es fallen keine Gebühren an.`,
    changed: 'Ihre Buchung wurde geändert; hier sehen Sie sie im aktuellen Stand. Die angehängte Kalenderdatei aktualisiert den Termin in Ihrem Kalender.',
    reminder: (instance, meetingPoint) =>
      `Eine Erinnerung an Ihre Buchung bei ${instance}.${meetingPoint ? ` Bitte seien Sie einige Minuten vor Beginn am Treffpunkt: ${meetingPoint}.` : ''}`,
  },
  facts: {
    booking: 'Buchung',
    tour: 'Tour',
    when: 'Wann',
    guidedIn: 'Sprache der Führung',
    meetingPoint: 'Treffpunkt',
    party: 'Gruppe',
    ticket: 'Ticket',
    addon: 'Extra',
    dueOnArrival: 'Gesamtbetrag, zahlbar bei Ankunft',
    people: (count) => `${count} ${count === 1 ? 'Person' : 'Personen'}`,
    free: 'kostenlos',
  },
  terms: {
    leadBeforeConfirmation: 'Nach der Bestätigung kostet eine Stornierung:',
    lead: 'Eine Stornierung kostet:',
    until: (moment) => `Bis ${moment}`,
    untilStart: 'Bis zum Beginn',
    fromNow: 'Ab jetzt',
    afterThat: 'Danach',
    notTurningUp: 'Nichterscheinen',
    noLongerCancellable: 'eine Stornierung ist nicht mehr möglich',
    freeOfCharge: 'kostenlos',
    fee: (percent, amount) => `${percent} des Gesamtbetrags, ${amount}`,
  },
  manage: {
    open: 'Buchung ansehen oder ändern',
    closed: 'Buchung ansehen',
  },
  calendar: {
    booking: (code) => `Buchung ${code}`,
    manage: 'Verwalten',
  },
  newsletter: {
    subject: (instance) => `Bestätigen Sie Ihr Newsletter-Abonnement von ${instance}`,
    greeting: 'Hallo,',
    paragraph: (instance) =>
      `Jemand – hoffentlich Sie – möchte den Newsletter von ${instance} an diese Adresse erhalten. Öffnen Sie den Link innerhalb von 7 Tagen, um das zu bestätigen; wenn Sie es nicht waren, ignorieren Sie diese Nachricht, dann erhalten Sie nichts weiter.`,
    link: 'Abonnement bestätigen',
  },
}
