import assert from 'node:assert/strict'
import { test } from 'node:test'
import { csvField, csvRecord } from '../../src/domain/csv.ts'

// The one CSV writer (exports, manifests, the CLI's listings): RFC 4180 quoting, and text a
// spreadsheet would run as a formula written as text.

test('text starting with =, +, -, @, a tab or a carriage return gets a leading apostrophe', () => {
  assert.equal(csvField('=HYPERLINK("http://evil.example","x")'), `"'=HYPERLINK(""http://evil.example"",""x"")"`)
  assert.equal(csvField("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0")
  assert.equal(csvField('@SUM(1+1)'), "'@SUM(1+1)")
  assert.equal(csvField('-2+3+cmd'), "'-2+3+cmd")
  assert.equal(csvField('\t=1+1'), "'\t=1+1")
  assert.equal(csvField('\r=1+1'), `"'\r=1+1"`)
})

test('numbers, signed numbers and E.164 phones are written as they are; other text only quoted where RFC 4180 asks', () => {
  assert.equal(csvField(-500), '-500')
  assert.equal(csvField('-12.50'), '-12.50')
  assert.equal(csvField('+351912345678'), '+351912345678')
  assert.equal(csvField('Ana Silva'), 'Ana Silva')
  assert.equal(csvField('Smith, "Bob"\nsecond line'), '"Smith, ""Bob""\nsecond line"')
  assert.equal(csvField(true), 'true')
  assert.equal(csvField(null), '')
  assert.equal(csvRecord(['a', 1, null, '=x']), "a,1,,'=x\r\n")
})
