/** A command that could not do its job: the CLI prints the message as one line on stderr and exits 1. */
export class CliFailure extends Error {}

/** Exit statuses (docs/operator-api.md, "Command line"). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const
