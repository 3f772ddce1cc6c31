import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { runReadmeWalkThrough } from '../helpers/readme-walkthrough.ts'

// The README's curl walk-through, as pasted, against an app built in this process with the
// clock held still (test/docs/start-and-book.test.ts runs it against `npm start`'s bundle).

test("the README's curl walk-through runs as pasted: it finds a slot, holds it, checks out and cancels", async (t) => {
  const service = await build(t)
  await runReadmeWalkThrough(service.origin, service.clock.now())
})
