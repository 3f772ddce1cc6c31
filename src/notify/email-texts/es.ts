import type { EmailTexts } from './en.ts'

/** Spanish, addressing the guest as tú as travel mail in Spain does (src/notify/email-texts/en.ts says what each text is). */
export const es: EmailTexts = {
  locale: 'es-ES',
  zone: ({ generic }) => generic(),
  greeting: (name) => `Hola, ${name}:`,
  subjects: {
    requestReceived: 'Solicitud recibida',
    confirmed: 'Reserva confirmada',
    declined: 'Solicitud rechazada',
    cancelled: 'Reserva cancelada',
    departureCancelled: 'Salida cancelada',
    changed: 'Reserva modificada',
    reminder: 'Hasta pronto',
  },
  paragraphs: {
    requestReceived: (instance) =>
      `Gracias: ${instance} ha recibido tu solicitud y la confirmará o rechazará en breve. Mientras tanto, tus plazas quedan reservadas; no hay nada que pagar hasta tu llegada.`,
    confirmed: 'Tu reserva está confirmada. El archivo de calendario adjunto la añade a tu calendario.',
    declined: (instance, reason) => `Lo sentimos: ${instance} no ha podido aceptar tu solicitud.${reason ? ` ${reason}` : ''} No hay nada que pagar.`,
    cancelledByGuest: 'Tu reserva está cancelada, como pediste.',
    cancelledByOperator: (instance) => `${instance} ha cancelado tu reserva.`,
    cancellationFee: (fee) => `Se aplica un cargo por cancelación de ${fee}, según las condiciones con las que reservaste.`,
    noCancellationFee: 'No se aplica ningún cargo por cancelación.',
    departureCancelled: (instance, reason) =>
      `Lo sentimos: ${instance} ha cancelado esta salida${reason ? ` (${reason})` : ''} y, con ella, tu reserva. No se aplica ningún cargo.`,
    changed: 'Tu reserva ha cambiado; así queda ahora. El archivo de calendario adjunto actualiza el evento en tu calendario.',
    reminder: (instance, meetingPoint) =>
      `Te recordamos tu reserva con ${instance}.${meetingPoint ? ` Por favor, preséntate en ${meetingPoint} unos minutos antes del inicio.` : ''}`,
  },
  facts: {
    booking: 'Reserva',
    tour: 'Excursión',
    when: 'Cuándo',
    guidedIn: 'Idioma del guía',
    meetingPoint: 'Punto de encuentro',
    party: 'Grupo',
    ticket: 'Entrada',
    addon: 'Extra',
    dueOnArrival: 'Total, a pagar a la llegada',
    people: (count) => `${count} ${count === 1 ? 'persona' : 'personas'}`,
    free: 'gratis',
  },
  terms: {
    leadBeforeConfirmation: 'Una vez confirmada, cancelar cuesta:',
    lead: 'Cancelar cuesta:',
    until: (moment) => `Hasta el ${moment}`,
    untilStart: 'Hasta el inicio',
    fromNow: 'Desde ahora',
    afterThat: 'Después',
    notTurningUp: 'No presentarse',
    noLongerCancellable: 'ya no se puede cancelar',
    freeOfCharge: 'sin coste',
    fee: (percent, amount) => `${percent} del total, ${amount}`,
  },
  manage: {
    open: 'Ver o modificar tu reserva',
    closed: 'Ver tu reserva',
  },
  calendar: {
    booking: (code) => `Reserva ${code}`,
    manage: 'Gestionar',
  },
  newsletter: {
    subject: (instance) => `Confirma tu suscripción a ${instance}`,
    greeting: 'Hola:',
    paragraph: (instance) =>
      `Alguien, esperamos que tú, ha pedido recibir el boletín de ${instance} en esta dirección. Abre el enlace en un plazo de 7 días para confirmarlo; si no has sido tú, ignora este mensaje y no recibirás nada más.`,
    link: 'Confirmar mi suscripción',
  },
}
