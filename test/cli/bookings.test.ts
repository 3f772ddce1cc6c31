import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { runCli } from '../helpers/cli.ts'
import { ApiClient } from '../helpers/client.ts'
import { migratedDatabase } from '../helpers/database.ts'
import { OperatorClient } from '../helpers/operator.ts'
import { startServer } from '../helpers/server-process.ts'

// `tourdesk bookings list` and `tourdesk manifest` against bookings guests made through a
// started service (its own process, the real clock), and the README's first five minutes:
// a manager made with the CLI confirms the Fado request, and the manifest shows it.
const PASSWORD = 'correct horse battery staple'

async function setting(t: TestContext) {
  const db = await migratedDatabase()
  const server = await startServer({ DATABASE_URL: db.url })
  t.after(async () => {
    await server.stop()
    await db.drop()
  })
  const guest = new ApiClient(server.origin, 'lisbon', null)
  /** Books the first departure of `tour` a guest can still book, for `party`, with `contact` (guided in `language`, else the tour's first). */
  async function book(tour: string, party: number, contact: Record<string, string>, language?: string) {
    const { body } = await guest.get(`/availability?tour=${tour}&days=14&party=${party}`)
    const start = body.slots.find((s: { bookable: boolean }) => s.bookable).start as string
    const session = await guest.session()
    const held = await guest.post('/booking', { tour_id: tour, start, party, language }, { headers: session.headers })
    assert.equal(held.status, 200, held.text)
    const booked = await guest.post('/checkout', contact, { headers: { 'x-session': session.session } })
    assert.equal(booked.status, 200, booked.text)
    return { start, session: session.session, booking: booked.body }
  }
  const env = { DATABASE_URL: db.url }
  const cli = async (args: string[], stdin?: string) => {
    const run = await runCli(args, { env, stdin })
    assert.equal(run.code, 0, `${args.join(' ')}: exit ${run.code}\n${run.stderr}`)
    return run
  }
  return { server, guest, book, cli, env }
}

test('bookings list prints every booking with the API filters, as JSON when piped, CSV or a table on request', async (t) => {
  const { book, cli } = await setting(t)
  const fado = await book('fado-night', 2, { name: 'Ana Silva', email: 'ana@example.pt', phone: '912 345 678' })
  const walk = await book('alfama-walk', 3, { name: 'Rui Costa', email: 'rui@example.pt' }, 'pt')
  assert.equal(fado.booking.status, 'requested')

  const all = await cli(['bookings', 'list', '--instance', 'lisbon'])
  assert.equal(all.stderr, '', 'no progress when stderr is not a terminal')
  const records = JSON.parse(all.stdout)
  assert.deepEqual(records.map((b: { code: string }) => b.code).sort(), [fado.booking.code, walk.booking.code].sort())
  assert.ok(records.every((b: { version: number, channel: string }) => b.version >= 1 && b.channel === 'web'), 'the operator view of each')

  const codes = async (...filters: string[]) =>
    JSON.parse((await cli(['bookings', 'list', '--instance', 'lisbon', ...filters])).stdout).map((b: { code: string }) => b.code)
  assert.deepEqual(await codes('--status', 'requested'), [fado.booking.code])
  assert.deepEqual(await codes('--tour', 'alfama-walk'), [walk.booking.code])
  assert.deepEqual(await codes('--q', 'SILVA'), [fado.booking.code])
  assert.deepEqual(await codes('--status', 'held'), [])
  assert.deepEqual(await codes('--to', '2026-01-01'), [])
  assert.deepEqual(await codes('--language', 'PT'), [walk.booking.code])
  assert.deepEqual(await codes('--language', 'en'), [fado.booking.code])

  const csv = (await cli(['bookings', 'list', '--instance', 'lisbon', '--status', 'requested', '--format', 'csv'])).stdout.split('\r\n')
  assert.equal(csv[0], 'code,status,tour,start,party,name,email,phone,total,currency,channel,seats,units,reseller,reseller_net,language')
  // The amount in major units beside its currency: a spreadsheet sums the column.
  const total = (fado.booking.price.total / 100).toFixed(2)
  assert.equal(csv[1], `${fado.booking.code},requested,fado-night,${fado.booking.start},2,Ana Silva,ana@example.pt,+351912345678,${total},EUR,web,2,2 Person,,,en`)
  assert.deepEqual(csv.slice(2), [''])
  const table = (await cli(['bookings', 'list', '--instance', 'lisbon', '--format', 'table', '--tour', 'fado-night'])).stdout.split('\n')
  assert.match(table[0], /^code +status +tour +start +party +name +email +phone +total +currency +channel +seats +units +reseller +reseller_net +language$/)
  const local = `${fado.booking.start.slice(0, 10)} ${fado.booking.start.slice(11, 16)}`
  assert.match(table[1], new RegExp(`^${fado.booking.code} +requested +fado-night +${local} +2 +Ana Silva .* ${total.replace('.', '\\.')} +EUR +web +2 +2 Person +en$`), "the start as Lisbon's clock reads it")

  const bad = await runCli(['bookings', 'list', '--instance', 'lisbon', '--status', 'pending'], { env: { DATABASE_URL: 'sqlite:/nonexistent/x.db' } })
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /pending: statuses are held, released/)
  const badLanguage = await runCli(['bookings', 'list', '--instance', 'lisbon', '--language', 'pt_PT'], { env: { DATABASE_URL: 'sqlite:/nonexistent/x.db' } })
  assert.equal(badLanguage.code, 2)
  assert.match(badLanguage.stderr, /not a language tag/)
  const badDate = await runCli(['bookings', 'list', '--instance', 'lisbon', '--from', '2026-02-30'], { env: { DATABASE_URL: 'sqlite:/nonexistent/x.db' } })
  assert.equal(badDate.code, 2)
})

test('bookings list --format csv defuses what a spreadsheet would run as a formula, as the API export does', async (t) => {
  const { book, cli } = await setting(t)
  const names = ['=HYPERLINK("http://evil.example","x")', '+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0']
  for (const name of names) await book('alfama-walk', 1, { name, email: 'eve@example.com', phone: '+351 912 345 678' })

  const [header, ...rows] = (await cli(['bookings', 'list', '--instance', 'lisbon', '--format', 'csv'])).stdout.split('\r\n').filter((line) => line !== '')
  assert.equal(header, 'code,status,tour,start,party,name,email,phone,total,currency,channel,seats,units,reseller,reseller_net,language')
  assert.equal(rows.length, names.length)
  const cells = rows.map((row) => row.match(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)!.map((cell) => cell.replace(/,$/, '')))
  const written = cells.map((row) => row[5].replace(/^"(.*)"$/, '$1').replaceAll('""', '"')).sort()
  assert.deepEqual(written, names.map((name) => `'${name}`).sort(), 'each name starts with an apostrophe')
  assert.ok(cells.every((row) => row[6] === 'eve@example.com' && row[7] === '+351912345678'), 'an address and an E.164 phone are written as they are')
})

test("the operator's first five minutes: a CLI manager signs in, confirms the Fado request, the guest sees it, the manifest shows it", async (t) => {
  const { server, guest, book, cli, env } = await setting(t)
  const fado = await book('fado-night', 2, { name: 'Ana Silva', email: 'ana@example.pt', phone: '912 345 678' })

  await cli(['staff', 'add', '--instance', 'lisbon', '--email', 'you@example.com', '--name', 'Your Name', '--role', 'manager', '--password-stdin'], PASSWORD)
  const signIn = await new OperatorClient(server.origin, 'lisbon').post('/session', { email: 'you@example.com', password: PASSWORD })
  assert.equal(signIn.status, 200, signIn.text)
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const manager = new OperatorClient(server.origin, 'lisbon', { cookie, csrf: signIn.body.csrf_token })

  const requests = await manager.get('/bookings?status=requested&tour=fado-night')
  assert.equal(requests.status, 200, requests.text)
  assert.deepEqual(requests.body.bookings.map((b: { code: string }) => b.code), [fado.booking.code])
  const confirmed = await manager.post(`/bookings/${fado.booking.code}/confirm`)
  assert.equal(confirmed.status, 200, confirmed.text)
  assert.equal(confirmed.body.status, 'confirmed')
  assert.equal((await guest.get(`/booking?session=${fado.session}`)).body.status, 'confirmed', "the guest's GET /booking shows it")

  const json = JSON.parse((await cli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', fado.start])).stdout)
  assert.deepEqual(json.manifest.map((e: any) => [e.code, e.status, e.name, e.party]), [[fado.booking.code, 'confirmed', 'Ana Silva', 2]])
  assert.equal(json.totals.guests, 2)
  assert.equal(json.departure.tour_id, 'fado-night')
  // The start as the instance's clock reads it, as a guide would type it.
  const local = `${json.departure.date} ${json.departure.time}`
  const byLocal = await cli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', local])
  assert.deepEqual(JSON.parse(byLocal.stdout), json, `--start "${local}" names the same departure`)
  const notADate = await runCli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', '2026-02-30 20:30'], { env })
  assert.equal(notADate.code, 2)
  assert.match(notADate.stderr, /not a date and time/)

  const key = (await cli(['keys', 'create', '--instance', 'lisbon', '--name', 'Guide phone', '--role', 'guide'])).stdout.trim()
  const apiCsv = await fetch(`${server.origin}/admin/api/lisbon/departures/fado-night/${encodeURIComponent(fado.start)}`, { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' } })
  assert.equal(apiCsv.status, 200)
  const csv = await cli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', fado.start, '--format', 'csv'])
  assert.equal(csv.stdout, await apiCsv.text(), 'the same CSV as the API')
  const table = (await cli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', fado.start, '--format', 'table'])).stdout.split('\n')
  assert.match(table[0], /^Fado .+: 2 guests expected of \d+, .+ due on arrival$/)
  assert.equal(table[1], 'guided in: 2 en')
  assert.match(table[2], /^code +status +name +phone +party +add-ons +due +checked_in +note +seats +units +language$/)
  assert.match(table[3], new RegExp(`^${fado.booking.code} +confirmed +Ana Silva +\\+351912345678 +2 .* en$`))

  const missing = await runCli(['manifest', '--instance', 'lisbon', '--tour', 'fado-night', '--start', '2026-01-01T03:17:00Z'], { env })
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /^tourdesk: [^\n]+\n$/)
})
