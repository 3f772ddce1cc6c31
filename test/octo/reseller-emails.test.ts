import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ParsedMail } from 'mailparser'
import { build, demoCatalog } from '../helpers/build.ts'
import { mailSink } from '../helpers/smtp.ts'
import { OctoClient } from './octo-client.ts'

// A reseller's cancellation is one the operator did not make: the operator is told, as of a
// guest's own (src/notify/email-projection.ts, cancelled_by reseller).

const OPERATOR = 'ops@tours.example'
const UUID = '0e1f2a3b-0001-4c5d-8e6f-7a8b9c0d0001'
const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0].address

test("the operator is emailed when a reseller cancels a confirmed booking", async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = demoCatalog()
  catalog.instances[0].operator_emails = [OPERATOR]
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  const lisbon = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(lisbon.instance.ref, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  const octo = new OctoClient(service, 'lisbon', secret)
  const deliver = async () => {
    await service.context.scheduler.runNow('emails')
    await service.context.scheduler.runNow('email-sending')
  }

  await octo.request('POST', '/bookings', '/bookings/', { uuid: UUID, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-05T09:30:00+01:00', unitItems: [{ unitId: 'person' }] })
  const confirmed = await octo.request('POST', `/bookings/${UUID}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' } })
  await deliver()
  const before = sink.messages.filter((m) => to(m) === OPERATOR).length
  const cancelled = await octo.request('POST', `/bookings/${UUID}/cancel`, '/bookings/{uuid}/cancel')
  assert.equal(cancelled.body.status, 'CANCELLED')
  await deliver()
  const told = sink.messages.filter((m) => to(m) === OPERATOR).slice(before)
  assert.equal(told.length, 1, told.map((m) => m.subject).join('; '))
  assert.match(told[0].subject!, /^Cancelled by the guest/)
  assert.ok(told[0].subject!.includes(confirmed.body.supplierReference), told[0].subject)
})
