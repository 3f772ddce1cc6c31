import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** The IPv4 address made of the 32 bits of `parts` (16-bit groups) starting at group `from`, each group XORed with `mask`. */
function ipv4At(parts: number[], from: number, mask = 0): ipaddr.IPv4 {
  const high = parts[from] ^ mask
  const low = parts[from + 1] ^ mask
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that route to them: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64's well-known prefix (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::) and Teredo (server and
 * obfuscated client). Empty for any other address.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const parts = address.parts
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [ipv4At(parts, 6)]
    case 'rfc6052':
      // 64:ff9b:1::/48 is NAT64 for local use only: refused whatever it carries (see isBlockedAddress).
      return parts[2] === 0 ? [ipv4At(parts, 6)] : []
    case '6to4':
      return [ipv4At(parts, 1)]
    case 'teredo':
      return [ipv4At(parts, 2), ipv4At(parts, 6, 0xffff)]
    default:
      return parts.slice(0, 6).every((part) => part === 0) ? [ipv4At(parts, 6)] : []
  }
}

/**
 * True when a webhook must not connect to `address` (an IP address, v4 or v6) unless
 * TOURDESK_WEBHOOKS_ALLOW_PRIVATE=on (SSRF defence): anything but a public unicast address
 * (ipaddr.js's ranges: loopback, private, link-local, unspecified, CGNAT, multicast, reserved,
 * unique-local, the deprecated site-local fec0::/10 …), and an IPv6 address that carries an
 * IPv4 address when that one is refused, in whatever form it carries it.
 */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast'
  const v6 = parsed as ipaddr.IPv6
  const inner = embeddedIpv4(v6)
  if (inner.length > 0) return inner.some((v4) => v4.range() !== 'unicast')
  return v6.range() !== 'unicast' && v6.range() !== 'teredo'
}

/** The refusal names the host as given, never what it resolved to (which would let a caller map internal names). */
export class RefusedAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} is or resolves to a private, loopback or otherwise internal address; webhooks are not sent there (TOURDESK_WEBHOOKS_ALLOW_PRIVATE is off)`)
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
  if (addresses.some((a) => isBlockedAddress(a.address))) throw new RefusedAddressError(host)
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
