import { isIP } from 'node:net'
import addressparser from 'nodemailer/lib/addressparser/index.js'

/** What choosing an instance's From needs of it. */
export interface SenderInstance {
  name: string
  email_from?: string
  operator_emails?: readonly string[]
}

/**
 * Whether a host can stand after the @ of an address a mail server takes: a domain name, not
 * an IP address (which would need brackets, and which receivers refuse anyway) nor a name
 * without a dot such as localhost.
 */
function isMailDomain(hostname: string): boolean {
  return isIP(hostname.replace(/^\[|\]$/g, '')) === 0 && hostname.includes('.') && hostname !== 'localhost'
}

/**
 * The address an instance's emails come from, and the ORGANIZER of their calendar files: its
 * email_from; else no-reply@ the host of TOURDESK_PUBLIC_URL when that is a domain name; else
 * (the service reached at an IP address or localhost, as when TOURDESK_PUBLIC_URL is unset) the
 * first of its operator_emails, so a guest's reply reaches the operator; else no-reply@localhost.
 * The start-up log says when the last two apply (src/server.ts).
 */
export function senderAddress(instance: SenderInstance, publicUrl: string): { name: string, address: string } {
  const name = instance.name.replace(/["\\\r\n]/g, '')
  if (instance.email_from) {
    const [written] = addressparser(instance.email_from, { flatten: true })
    if (written?.address) return { name: written.name || name, address: written.address }
  }
  const host = new URL(publicUrl).hostname
  if (isMailDomain(host)) return { name, address: `no-reply@${host}` }
  return { name, address: instance.operator_emails?.[0] ?? 'no-reply@localhost' }
}

/** The From header: the instance's email_from as written, else its name and sender address. */
export function fromHeader(instance: SenderInstance, publicUrl: string): string {
  if (instance.email_from) return instance.email_from
  const { name, address } = senderAddress(instance, publicUrl)
  return `"${name}" <${address}>`
}
