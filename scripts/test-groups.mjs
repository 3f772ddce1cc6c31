/**
 * Puts test bundles (scripts/bundle-tests.ts) into a few groups, each one entry that imports
 * its bundles, so that Node's test runner starts one process per group instead of one per
 * file (scripts/test.sh, scripts/test-fast.sh):
 *
 *   node scripts/test-groups.mjs OUTDIR COUNT BUNDLE...
 *
 * writes OUTDIR/group-01.mjs … and prints their paths, the heaviest group first. A process
 * pays a few seconds of CPU before its first test is done (loading the bundle, compiling the
 * schemas and warming up the code every test then runs), whatever the file: on 2026-11-27, 24
 * files of test/api run side by side two at a time took 131 s of CPU and 72 s one process per
 * file, and 62 s of CPU and 37 s in four groups (docs/testing.md). The tests of a group run
 * one after another, as a file's do; each still makes its own database and port. A group's
 * tests are reported under the file that declares them (scripts/test-timings-reporter.mjs).
 * Files are weighed by their bundle's size, which follows the number and length of their
 * tests, and dealt heaviest first to the lightest group, so groups end at about the same time.
 */
import { statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'

const [outdir, countArg, ...bundles] = process.argv.slice(2)
const count = Math.min(Number(countArg), bundles.length)
if (!outdir || !(count >= 1)) throw new Error('usage: scripts/test-groups.mjs OUTDIR COUNT BUNDLE...')

const groups = Array.from({ length: count }, () => ({ weight: 0, members: [] }))
const weighed = bundles.map((bundle) => ({ bundle, weight: statSync(bundle).size })).sort((a, b) => b.weight - a.weight)
for (const { bundle, weight } of weighed) {
  const lightest = groups.reduce((min, group) => (group.weight < min.weight ? group : min))
  lightest.weight += weight
  lightest.members.push(bundle)
}
groups.sort((a, b) => b.weight - a.weight)
groups.forEach((group, index) => {
  const path = join(outdir, `group-${String(index + 1).padStart(2, '0')}.mjs`)
  writeFileSync(path, group.members.map((bundle) => `import './${basename(bundle)}'\n`).join(''))
  console.log(path)
})
