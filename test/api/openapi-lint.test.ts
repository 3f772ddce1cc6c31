import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'
import { build, type TestService } from '../helpers/build.ts'

// openapi.json as integrators' tools read it: Spectral (spectral:oas and the OWASP ruleset,
// .spectral.yaml) and Redocly CLI (recommended, redocly.yaml), at the versions pinned in
// package.json, over both documents as the service serves them behind an https proxy.
// Errors fail the test; warnings are printed, grouped by rule.

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUTPUT = join(ROOT, 'test-output', 'openapi-lint')
const require = createRequire(import.meta.url)
const binOf = (pkg: string, bin: string) => join(dirname(require.resolve(`${pkg}/package.json`)), require(`${pkg}/package.json`).bin[bin])

interface Finding { rule: string, severity: 'error' | 'warning' | 'info', where: string, message: string }

/** Runs a linter's CLI with this Node; a linter exits non-zero when it finds errors, so the exit code is not the verdict. */
function run(cli: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // A test run sends nothing anywhere: no usage data, no update check.
    const env = { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }
    execFile(process.execPath, [cli, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env }, (err, stdout, stderr) => {
      if (stdout.trim().startsWith('[') || stdout.trim().startsWith('{')) resolve(stdout)
      else reject(new Error(`${cli} gave no report (${err?.message ?? 'exit 0'}): ${stderr}`))
    })
  })
}

async function spectral(file: string): Promise<Finding[]> {
  const report = JSON.parse(await run(binOf('@stoplight/spectral-cli', 'spectral'), ['lint', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet', file]))
  return report.map((r: { code: string, severity: number, path: string[], message: string }) => ({
    rule: `spectral ${r.code}`, severity: (['error', 'warning', 'info', 'info'] as const)[r.severity], where: r.path.join('.'), message: r.message,
  }))
}

async function redocly(file: string): Promise<Finding[]> {
  const report = JSON.parse(await run(binOf('@redocly/cli', 'redocly'), ['lint', '--config', 'redocly.yaml', '--format', 'json', file]))
  return report.problems.map((p: { ruleId: string, severity: string, location: Array<{ pointer?: string }>, message: string }) => ({
    rule: `redocly ${p.ruleId}`, severity: p.severity === 'error' ? 'error' : 'warning', where: p.location[0]?.pointer ?? '', message: p.message,
  }))
}

/** The document as a client behind the operator's TLS proxy gets it (the server URL is then https). */
async function servedDocument(service: TestService, path: string, name: string): Promise<string> {
  const res = await fetch(`${service.origin}${path}`, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'book.alfama-tejo.example' } })
  assert.equal(res.status, 200)
  mkdirSync(OUTPUT, { recursive: true })
  const file = join(OUTPUT, `${name}.json`)
  writeFileSync(file, JSON.stringify(await res.json(), null, 2))
  return file
}

async function lint(t: TestContext, file: string): Promise<void> {
  const findings = (await Promise.all([spectral(file), redocly(file)])).flat()
  const byRule = new Map<string, Finding[]>()
  for (const finding of findings) byRule.set(`${finding.severity} ${finding.rule}`, [...(byRule.get(`${finding.severity} ${finding.rule}`) ?? []), finding])
  for (const [rule, list] of [...byRule].sort()) t.diagnostic(`${rule}: ${list.length} (first at ${list[0].where}: ${list[0].message})`)
  const errors = findings.filter((f) => f.severity === 'error')
  assert.deepEqual(errors.map((e) => `${e.rule} at ${e.where}: ${e.message}`), [], `${file}: 0 errors`)
}

// The two documents are linted side by side: each linter's start-up dominates the time.
describe('openapi.json under the integrators\' linters', { concurrency: true }, () => {
  test('the guest openapi.json has no Spectral (oas + OWASP) or Redocly (recommended) error', { timeout: 120_000 }, async (t) => {
    const service = await build(t, { trustProxy: true })
    await lint(t, await servedDocument(service, '/api/lisbon/openapi.json', 'guest'))
  })

  test('the operator openapi.json has no Spectral (oas + OWASP) or Redocly (recommended) error', {
    timeout: 120_000,
  }, async (t) => {
    const service = await build(t, { trustProxy: true })
    await lint(t, await servedDocument(service, '/admin/api/lisbon/openapi.json', 'operator'))
  })
})
