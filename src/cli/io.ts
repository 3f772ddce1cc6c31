/** Results go to stdout, messages and progress to stderr (docs/operator-api.md, "Command line"). */

/** One message line on stderr, prefixed like every line the CLI writes there. */
export function say(message: string): void {
  process.stderr.write(`tourdesk: ${message.replace(/\s*\n\s*/g, ' ')}\n`)
}

/** A result line on stdout. */
export function print(text: string): void {
  process.stdout.write(`${text}\n`)
}

/** All of stdin as text, without the one line break that ends it (echo and here-strings add one). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('tourdesk: type the password, then Enter and Ctrl-D\n')
  let text = ''
  for await (const chunk of process.stdin) text += (chunk as Buffer).toString('utf8')
  return text.replace(/\r?\n$/, '')
}

/**
 * Progress of a long export on stderr, only when stderr is a terminal: piped or redirected
 * output stays clean. Rewrites one line; `done` clears it.
 */
export function progress(): { update(message: string): void, done(): void } {
  if (!process.stderr.isTTY) return { update() {}, done() {} }
  return {
    update: (message) => process.stderr.write(`\r\x1b[2K${message}`),
    done: () => process.stderr.write('\r\x1b[2K'),
  }
}
