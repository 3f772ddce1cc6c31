import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook may not connect unless TOURDESK_WEBHOOKS_ALLOW_PRIVATE=on (SSRF defence):
 * loopback, private (RFC 1918, fc00::/7), link-local, unspecified, CGNAT, multicast and
 * reserved ranges. An IPv4-mapped IPv6 address is judged by the IPv4 address it carries.
 */
const BLOCKED = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) BLOCKED.addSubnet(net, prefix, 'ipv6')

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d, in any spelling), else null. */
function mappedIpv4(address: string): string | null {
  // The URL parser writes an IPv6 address in its one canonical form: ::ffff:7f00:1 for ::ffff:127.0.0.1.
  const canonical = new URL(`http://[${address}]/`).hostname
  const groups = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical)
  if (!groups) return null
  const high = parseInt(groups[1], 16)
  const low = parseInt(groups[2], 16)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/** True when a webhook must not connect to `address` (an IP address, v4 or v6). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return BLOCKED.check(address, 'ipv4')
  if (family !== 6) return true
  const inner = mappedIpv4(address)
  return inner !== null ? BLOCKED.check(inner, 'ipv4') : BLOCKED.check(address, 'ipv6')
}

export class RefusedAddressError extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a private, loopback or otherwise internal address; webhooks are not sent there (TOURDESK_WEBHOOKS_ALLOW_PRIVATE is off)`)
  }
}

/** The host of a URL as a resolver takes it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/** Resolves `host` to every address it has; refuses the lot when any is blocked (a name may answer differently on the next lookup). */
export async function resolveSafely(host: string): Promise<LookupAddress[]> {
  const literal = isIP(host)
  const addresses: LookupAddress[] = literal !== 0
    ? [{ address: host, family: literal }]
    : await new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, found) => err ? reject(err) : resolve(found)))
  const blocked = addresses.find((a) => isBlockedAddress(a.address))
  if (blocked) throw new RefusedAddressError(host, blocked.address)
  return addresses
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for http(s).request that checks the addresses of every connection it makes, so
 * a name that resolved to a public address at creation and to 127.0.0.1 now is refused now.
 * (An IP literal never reaches `lookup`: the caller checks it with resolveSafely first.)
 */
export function safeLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  resolveSafely(hostname).then(
    (addresses) => options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family),
    (err) => callback(err, options.all ? [] : '', 0),
  )
}
