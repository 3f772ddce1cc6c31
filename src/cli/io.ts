import { once } from 'node:events'

/**
 * Results go to stdout, messages and progress to stderr (docs/operator-api.md, "Command line").
 * The CLI reaches its streams and its environment only through a CliIo, never through
 * `process`: src/cli/main.ts hands it the process's, and the tests (test/helpers/cli.ts) run
 * commands in their own process with streams they read back, as docs/testing.md explains.
 */
export interface CliStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean, columns?: number }
  stderr: NodeJS.WritableStream & { isTTY?: boolean, columns?: number }
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
}

export class CliIo {
  constructor(readonly streams: CliStreams) {}

  get env(): NodeJS.ProcessEnv {
    return this.streams.env
  }

  /** Whether a person reads stdout (a terminal), rather than a pipe or a file. */
  get stdoutIsTerminal(): boolean {
    return this.streams.stdout.isTTY === true
  }

  /** One message line on stderr, prefixed like every line the CLI writes there. */
  say(message: string): void {
    this.streams.stderr.write(`tourdesk: ${message.replace(/\s*\n\s*/g, ' ')}\n`)
  }

  /** A result line on stdout. */
  print(text: string): void {
    this.streams.stdout.write(`${text}\n`)
  }

  /** Text on stdout; a slow reader at the other end of a pipe holds a long export back instead of filling memory. */
  async write(text: string): Promise<void> {
    if (text !== '' && !this.streams.stdout.write(text)) await once(this.streams.stdout, 'drain')
  }

  /** All of stdin as text, without the one line break that ends it (echo and here-strings add one). */
  async readStdin(): Promise<string> {
    if (this.streams.stdin.isTTY) this.streams.stderr.write('tourdesk: type the password, then Enter and Ctrl-D\n')
    let text = ''
    for await (const chunk of this.streams.stdin) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8')
    return text.replace(/\r?\n$/, '')
  }

  /**
   * Progress of a long export on stderr, only when stderr is a terminal: piped or redirected
   * output stays clean. Rewrites one line; `done` clears it.
   */
  progress(): { update(message: string): void, done(): void } {
    const { stderr } = this.streams
    if (!stderr.isTTY) return { update() {}, done() {} }
    return {
      update: (message) => stderr.write(`\r\x1b[2K${message}`),
      done: () => stderr.write('\r\x1b[2K'),
    }
  }
}

/** The process's own streams and environment, as `tourdesk` run from a shell has them. */
export function processIo(): CliIo {
  return new CliIo({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env })
}
