import type { EmailTexts } from './en.ts'

/** European Portuguese, as a Lisbon operator's guests read it (src/notify/email-texts/en.ts says what each text is). */
export const pt: EmailTexts = {
  locale: 'pt-PT',
  zone: ({ generic }) => generic(),
  greeting: (name) => `Olá ${name},`,
  subjects: {
    requestReceived: 'Pedido recebido',
    confirmed: 'Reserva confirmada',
    declined: 'Pedido recusado',
    cancelled: 'Reserva cancelada',
    departureCancelled: 'Saída cancelada',
    changed: 'Reserva alterada',
    reminder: 'Até breve',
  },
  paragraphs: {
    requestReceived: (instance) =>
      `Obrigado pelo seu pedido: ${instance} recebeu-o e vai confirmá-lo ou recusá-lo em breve. Entretanto, os seus lugares ficam guardados; não há nada a pagar até chegar.`,
    confirmed: 'A sua reserva está confirmada. O ficheiro de calendário em anexo acrescenta-a ao seu calendário.',
    declined: (instance, reason) => `Lamentamos: ${instance} não pôde aceitar o seu pedido.${reason ? ` ${reason}` : ''} Não há nada a pagar.`,
    cancelledByGuest: 'A sua reserva foi cancelada, como pediu.',
    cancelledByOperator: (instance) => `${instance} cancelou a sua reserva.`,
    cancellationFee: (fee) => `Aplica-se uma taxa de cancelamento de ${fee}, segundo as condições com que reservou.`,
    noCancellationFee: 'Não se aplica nenhuma taxa de cancelamento.',
    departureCancelled: (instance, reason) =>
      `Lamentamos: ${instance} cancelou esta saída${reason ? ` (${reason})` : ''} e, com ela, a sua reserva. Não se aplica nenhuma taxa.`,
    changed: 'A sua reserva foi alterada; aqui está como fica agora. O ficheiro de calendário em anexo atualiza o evento no seu calendário.',
    reminder: (instance, meetingPoint) =>
      `Lembramos a sua reserva com ${instance}.${meetingPoint ? ` Por favor, esteja em ${meetingPoint} alguns minutos antes do início.` : ''}`,
  },
  facts: {
    booking: 'Reserva',
    tour: 'Passeio',
    when: 'Quando',
    guidedIn: 'Idioma do guia',
    meetingPoint: 'Ponto de encontro',
    party: 'Grupo',
    ticket: 'Bilhete',
    addon: 'Extra',
    dueOnArrival: 'Total, a pagar à chegada',
    people: (count) => `${count} ${count === 1 ? 'pessoa' : 'pessoas'}`,
    free: 'grátis',
  },
  terms: {
    leadBeforeConfirmation: 'Depois de confirmada, cancelar custa:',
    lead: 'Cancelar custa:',
    until: (moment) => `Até ${moment}`,
    untilStart: 'Até ao início',
    fromNow: 'A partir de agora',
    afterThat: 'Depois disso',
    notTurningUp: 'Não comparecer',
    noLongerCancellable: 'já não pode ser cancelada',
    freeOfCharge: 'sem custos',
    fee: (percent, amount) => `${percent} do total, ${amount}`,
  },
  manage: {
    open: 'Ver ou alterar a sua reserva',
    closed: 'Ver a sua reserva',
  },
  calendar: {
    booking: (code) => `Reserva ${code}`,
    manage: 'Gerir',
  },
  newsletter: {
    subject: (instance) => `Confirme a sua subscrição de ${instance}`,
    greeting: 'Olá,',
    paragraph: (instance) =>
      `Alguém, esperamos que tenha sido você, pediu para receber a newsletter de ${instance} neste endereço. Abra a ligação nos próximos 7 dias para confirmar; se não foi você, ignore esta mensagem e não receberá mais nada.`,
    link: 'Confirmar a minha subscrição',
  },
}
