import type { EmailTexts } from './en.ts'

/** French, addressing the guest as vous (src/notify/email-texts/en.ts says what each text is). */
export const fr: EmailTexts = {
  locale: 'fr-FR',
  zone: ({ generic }) => generic(),
  greeting: (name) => `Bonjour ${name},`,
  subjects: {
    requestReceived: 'Demande reçue',
    confirmed: 'Réservation confirmée',
    declined: 'Demande refusée',
    cancelled: 'Réservation annulée',
    departureCancelled: 'Départ annulé',
    changed: 'Réservation modifiée',
    reminder: 'À bientôt',
  },
  paragraphs: {
    requestReceived: (instance) =>
      `Merci : ${instance} a bien reçu votre demande et la confirmera ou la refusera sous peu. Vos places vous sont gardées en attendant ; rien n’est à payer avant votre arrivée.`,
    confirmed: 'Votre réservation est confirmée. Le fichier de calendrier joint l’ajoute à votre agenda.',
    declined: (instance, reason) => `Nous sommes désolés : ${instance} n’a pas pu accepter votre demande.${reason ? ` ${reason}` : ''} Vous n’avez rien à payer.`,
    cancelledByGuest: 'Votre réservation est annulée, comme vous l’avez demandé.',
    cancelledByOperator: (instance) => `${instance} a annulé votre réservation.`,
    cancellationFee: (fee) => `Des frais d’annulation de ${fee} s’appliquent, selon les conditions de votre réservation.`,
    noCancellationFee: 'Aucuns frais d’annulation ne s’appliquent.',
    departureCancelled: (instance, reason) =>
      `Nous sommes désolés : ${instance} a annulé ce départ${reason ? ` (${reason})` : ''}, et avec lui votre réservation. Aucuns frais ne s’appliquent.`,
    changed: 'Votre réservation a été modifiée ; la voici telle qu’elle est désormais. Le fichier de calendrier joint met à jour l’événement dans votre agenda.',
    reminder: (instance, meetingPoint) =>
      `Petit rappel de votre réservation auprès de ${instance}.${meetingPoint ? ` Merci de vous présenter à ${meetingPoint} quelques minutes avant le départ.` : ''}`,
  },
  facts: {
    booking: 'Réservation',
    tour: 'Excursion',
    when: 'Quand',
    guidedIn: 'Langue du guide',
    meetingPoint: 'Point de rendez-vous',
    party: 'Groupe',
    ticket: 'Billet',
    addon: 'Option',
    dueOnArrival: 'Total, à payer à l’arrivée',
    people: (count) => `${count} ${count === 1 ? 'personne' : 'personnes'}`,
    free: 'gratuit',
  },
  terms: {
    leadBeforeConfirmation: 'Une fois la réservation confirmée, l’annulation coûte :',
    lead: 'L’annulation coûte :',
    until: (moment) => `Jusqu’au ${moment}`,
    untilStart: 'Jusqu’au départ',
    fromNow: 'Dès maintenant',
    afterThat: 'Ensuite',
    notTurningUp: 'Non-présentation',
    noLongerCancellable: 'elle ne peut plus être annulée',
    freeOfCharge: 'gratuite',
    fee: (percent, amount) => `${percent} du total, soit ${amount}`,
  },
  manage: {
    open: 'Voir ou modifier votre réservation',
    closed: 'Voir votre réservation',
  },
  calendar: {
    booking: (code) => `Réservation ${code}`,
    manage: 'Gérer',
  },
  newsletter: {
    subject: (instance) => `Confirmez votre abonnement à ${instance}`,
    greeting: 'Bonjour,',
    paragraph: (instance) =>
      `Quelqu’un (vous, nous l’espérons) a demandé à recevoir la lettre d’information de ${instance} à cette adresse. Ouvrez le lien dans les 7 jours pour confirmer ; si ce n’était pas vous, ignorez ce message et vous ne recevrez plus rien.`,
    link: 'Confirmer mon abonnement',
  },
}
