import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { OperatorClient, signedInStaff, STAFF_PASSWORD } from '../helpers/operator.ts'

// The sign-in lockout under concurrent attempts over real HTTP, on SQLite and PostgreSQL:
// each attempt is counted before its password is checked, so however many arrive at once,
// at most five are checked (401) before the rest are refused (429), and a right password
// counted after the fifth failure is refused like a wrong one.
const WRONG = 60

async function setting(t: Parameters<typeof build>[0]) {
  const service = await build(t)
  const { email } = await signedInStaff(service, 'manager')
  const anonymous = new OperatorClient(service.origin, 'lisbon')
  const attempt = (password: string) => anonymous.post('/session', { email, password }).then((res) => res.status)
  return { attempt }
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length

test(`${WRONG} concurrent wrong passwords: five are checked (401), the rest refused (429), and then the right one is refused too`, async (t) => {
  const { attempt } = await setting(t)
  const statuses = await Promise.all(Array.from({ length: WRONG }, (_, i) => attempt(`wrong password ${i}`)))
  assert.deepEqual({ checked: count(statuses, 401), refused: count(statuses, 429) }, { checked: 5, refused: WRONG - 5 }, `statuses: ${statuses.join(' ')}`)
  assert.equal(await attempt(STAFF_PASSWORD), 429, 'the email is locked')
})

test('59 wrong and 1 right at once: the right one signs in only if counted among the first five, else it is refused', async (t) => {
  const { attempt } = await setting(t)
  const right = Math.floor(Math.random() * 60)
  const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(i === right ? STAFF_PASSWORD : `wrong password ${i}`)))
  const mine = statuses[right]
  const wrong = statuses.filter((_, i) => i !== right)
  assert.ok(mine === 200 || mine === 429, `the right password answered ${mine}`)
  // Refused: five failures were counted before it, and only those five were checked. Signed
  // in: at most four were counted before it; its success cleared the count, after which at
  // most five more were checked.
  if (mine === 429) assert.equal(count(wrong, 401), 5)
  else assert.ok(count(wrong, 401) <= 9, `${count(wrong, 401)} wrong passwords were checked`)
  assert.equal(count(wrong, 401) + count(wrong, 429), 59)
})

test('a right password sent once five failures are counted, while they are still being checked, is refused', async (t) => {
  const { attempt } = await setting(t)
  let firstRefusal: () => void
  const refused = new Promise<void>((resolve) => { firstRefusal = resolve })
  const wrong = Array.from({ length: 59 }, (_, i) => attempt(`wrong password ${i}`).then((status) => {
    if (status === 429) firstRefusal()
    return status
  }))
  // A 429 says five attempts are counted; the right one goes after them, not by luck.
  await Promise.race([refused, Promise.all(wrong)])
  const mine = await attempt(STAFF_PASSWORD)
  const statuses = await Promise.all(wrong)
  assert.equal(count(statuses, 401), 5, 'five wrong passwords were checked')
  assert.equal(mine, 429, 'the right password after five counted failures is refused')
})
