/**
 * Bundles test files (scripts/test-fast.sh, scripts/test.sh), so that their processes load
 * JavaScript with plain node instead of compiling TypeScript through tsx: loading `src/`
 * through tsx's hooks cost about 1.9 s of CPU in every test file's process, about a third of a
 * small file's whole cost (docs/testing.md).
 *
 *   node --import tsx scripts/bundle-tests.ts OUTDIR FILE...
 *
 * writes one bundle per test file into OUTDIR (a folder under test-output/); the code they
 * share goes into chunks beside them, loaded once per process, and packages stay in
 * node_modules, loaded by node as usual. Every `import.meta.url` (and `.filename`,
 * `.dirname`) is written as the URL of the source file it appears in, so that paths a test
 * or the service finds from its own file (`new URL('../../config/demo.json', import.meta.url)`)
 * are the same as when the sources run. `test/api/booking.test.ts` becomes
 * `OUTDIR/api--booking.test.mjs` (with its source map, so a failure names the TypeScript
 * line), and the bundles' paths are printed in the order of the files given.
 */
import { readFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { PROJECT_ROOT } from '../src/project-root.ts'

const [outdir, ...files] = process.argv.slice(2)
if (!outdir || files.length === 0) throw new Error('usage: scripts/bundle-tests.ts OUTDIR FILE...')
if (!/^test-output\/[^/]+$/.test(relative(PROJECT_ROOT, resolve(outdir)))) throw new Error(`${outdir} is not a folder of test-output/ (scripts/test-timings-reporter.mjs names bundles there by their test files)`)

/** The bundle's name for a test file: its path under test/, folders joined by `--` (scripts/test-timings-reporter.mjs reads it back). */
const bundleName = (file: string) => relative(resolve(PROJECT_ROOT, 'test'), resolve(file)).replace(/\.ts$/, '').replaceAll('/', '--')

/**
 * Each source file's `import.meta` paths, as they are when the file itself runs: the project's
 * JavaScript too (scripts/test-summary.mjs, imported by a test, prints its summary when
 * `import.meta.url` is the URL of the process's main file, which a bundle's own URL is).
 */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(builder) {
    builder.onLoad({ filter: /\.(ts|mjs|js)$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8')
      const contents = source
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(path).href))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(path))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(path)))
      return { contents, loader: path.endsWith('.ts') ? 'ts' : 'js' }
    })
  },
}

await build({
  absWorkingDir: PROJECT_ROOT,
  entryPoints: Object.fromEntries(files.map((file) => [bundleName(file), file])),
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [ownImportMeta],
})
for (const file of files) console.log(`${outdir}/${bundleName(file)}.mjs`)
