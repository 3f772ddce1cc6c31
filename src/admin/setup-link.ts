/**
 * Where a new staff member sets a password: the back office's setup page, with the token
 * after `#` so that it never reaches a server's access log or a Referer header.
 */
export function setupLink(origin: string, prefix: string, token: string): string {
  return `${origin}/admin/${prefix}/setup#${token}`
}
