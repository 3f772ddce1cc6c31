import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Temporal } from 'temporal-polyfill'
import { PROJECT_ROOT } from '../../src/project-root.ts'

// The README's curl walk-through must run as pasted, with no hand editing: the tests take
// its code block from README.md and run it in bash against a started service. The block
// reads the service's origin from BASE (http://127.0.0.1:3000, where `npm start` listens,
// when unset), so nothing in it is changed here.

const SECTION = 'A booking with curl'

/**
 * The code blocks (Markdown's four-space indent) of the README section under `heading`, a
 * `##` or `###` heading, up to the next heading of either level.
 */
export function readmeBlocks(heading: string): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
  const section = readme.split(/^#{2,3} /m).find((part) => part.startsWith(`${heading}\n`))
  assert.ok(section, `README.md has a section "${heading}"`)
  const blocks: string[][] = []
  let block: string[] | null = null
  for (const line of section.split('\n')) {
    if (line.startsWith('    ')) {
      if (!block) blocks.push(block = [])
      block.push(line.slice(4))
    } else if (line.trim() === '') {
      block?.push('')
    } else {
      block = null
    }
  }
  return blocks.map((lines) => lines.join('\n').trimEnd())
}

/** The code of the README section's one code block. */
function walkThrough(): string {
  const blocks = readmeBlocks(SECTION)
  assert.equal(blocks.length, 1, `the walk-through is one block, to paste at once; "${SECTION}" has ${blocks.length}`)
  return blocks[0]
}

export async function runBash(script: string, env: Record<string, string>) {
  const child = spawn('bash', ['-c', script], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  const [code] = await once(child, 'close') as [number | null]
  return { code, stdout, stderr }
}

/**
 * Runs the walk-through against the service at `origin`, whose clock reads `now`, and checks
 * every answer: a slot three days ahead found, held, read, checked out and cancelled for free.
 */
export async function runReadmeWalkThrough(origin: string, now: Temporal.Instant): Promise<void> {
  // -e, -u and pipefail only make a failure visible here; the block itself must not set them,
  // since a reader pastes it into an interactive shell.
  const run = await runBash(`set -euo pipefail\n${walkThrough()}`, { BASE: origin })
  assert.equal(run.code, 0, `the walk-through failed (exit ${run.code}):\n${run.stderr}\n${run.stdout}`)
  assert.equal(run.stderr, '', 'nothing on stderr')

  // Every curl that prints writes one JSON answer per line (-w '\n'). None may be a problem
  // (application/problem+json carries a numeric status; a booking's status is a word).
  const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))
  for (const answer of answers) {
    assert.notEqual(typeof answer.status, 'number', `the service answered a problem: ${JSON.stringify(answer)}`)
  }
  assert.equal(answers.length, 7, `index, search, availability, hold, read, checkout, cancel; got:\n${run.stdout}`)
  const [index, search, availability, hold, read, checkout, cancel] = answers

  assert.equal(index.timezone, 'Europe/Lisbon')
  assert.ok(search.tours.some((tour: { id: string }) => tour.id === 'belem-bike'), 'q=belem finds the Belém bike tour')
  // The cancellation at the end must be free: the slot picked is past the policy's 48 hours.
  const dayThree = Temporal.PlainDate.from(availability.date).add({ days: 3 }).toString()
  const firstBookable = availability.slots.find((slot: { bookable: boolean, date: string }) => slot.bookable && slot.date >= dayThree)
  assert.ok(firstBookable, 'the demo has a bookable Alfama walk three days ahead')
  assert.ok(Date.parse(firstBookable.start) > now.add({ hours: 48 }).epochMilliseconds, 'the slot is beyond the 48 hours of free cancellation')

  assert.equal(hold.status, 'held')
  assert.equal(hold.start, firstBookable.start, 'the hold is on the slot the walk-through picked itself')
  assert.equal(hold.party, 2)
  assert.deepEqual(hold.addons.map((addon: { id: string, quantity: number }) => [addon.id, addon.quantity]), [['ginjinha-tasting', 2]])
  assert.equal(hold.promo_code, 'WELCOME10')
  assert.ok(hold.price.discount > 0, 'the promo code takes its discount')

  assert.equal(read.id, hold.id, 'the cookie jar carries the session to the read')
  assert.equal(read.status, 'held')

  assert.equal(checkout.id, hold.id)
  assert.equal(checkout.status, 'confirmed', 'the Alfama walk confirms at once')
  assert.match(checkout.code, /^[A-Z0-9]{6}$/)
  assert.equal(checkout.price.due_on_arrival, hold.price.total)

  assert.equal(cancel.id, hold.id)
  assert.equal(cancel.code, checkout.code)
  assert.equal(cancel.status, 'cancelled')
  assert.deepEqual([cancel.cancellation.fee_percent, cancel.cancellation.fee], [0, 0], 'the walk-through shows a free cancellation')
}
