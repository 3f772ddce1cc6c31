import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed. */
export interface MailSink {
  url: string
  /** In the order they arrived. */
  messages: ParsedMail[]
  close(): Promise<void>
}

export interface MailSinkOptions {
  /** Offer STARTTLS with this certificate and key (PEM), as a local relay with its own certificate does. */
  tls?: { cert: string, key: string }
}

export async function mailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const messages: ParsedMail[] = []
  const server = new SMTPServer({
    disabledCommands: options.tls ? ['AUTH'] : ['STARTTLS', 'AUTH'],
    ...options.tls,
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push(mail)
        callback()
      }, callback)
    },
  })
  // A client that refuses the certificate hangs up mid-handshake: the server reports it, the test reads the outcome on the client's side.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as { port: number }
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
