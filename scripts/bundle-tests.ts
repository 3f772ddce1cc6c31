/**
 * Bundles test files for `npm run test:fast` (scripts/test-fast.sh), so that their processes
 * load JavaScript with plain node instead of compiling TypeScript through tsx: loading `src/`
 * through tsx's hooks cost about 1.9 s of CPU in every test file's process, about a third of a
 * small file's whole cost (docs/testing.md).
 *
 *   node --import tsx scripts/bundle-tests.ts OUTDIR FILE...
 *
 * writes one bundle per test file into OUTDIR, which must sit two folders below the project
 * (test-output/NAME), as the test files and helpers do: they find the project's files by
 * `new URL('../../', import.meta.url)`. The code they share goes into chunks in the same
 * folder, loaded once per process; packages stay in node_modules, loaded by node as usual.
 * `test/api/booking.test.ts` becomes `OUTDIR/api--booking.test.mjs` (with its source map),
 * and the bundles' paths are printed in the order of the files given.
 */
import { relative, resolve } from 'node:path'
import { build } from 'esbuild'
import { PROJECT_ROOT } from '../src/project-root.ts'

const [outdir, ...files] = process.argv.slice(2)
if (!outdir || files.length === 0) throw new Error('usage: scripts/bundle-tests.ts OUTDIR FILE...')
if (relative(PROJECT_ROOT, resolve(outdir)).split('/').length !== 2) throw new Error(`${outdir} is not two folders below ${PROJECT_ROOT}`)

/** The bundle's name for a test file: its path under test/, folders joined by `--` (scripts/test-timings-reporter.mjs reads it back). */
const bundleName = (file: string) => relative(resolve(PROJECT_ROOT, 'test'), resolve(file)).replace(/\.ts$/, '').replaceAll('/', '--')

await build({
  absWorkingDir: PROJECT_ROOT,
  entryPoints: Object.fromEntries(files.map((file) => [bundleName(file), file])),
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[name]-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'warning',
})
for (const file of files) console.log(`${outdir}/${bundleName(file)}.mjs`)
