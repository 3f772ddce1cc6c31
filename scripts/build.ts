/**
 * `npm run build`: bundles the service and its dependencies into dist/server.js, which
 * `npm start` runs with plain node. Loading one file instead of TypeScript sources and a
 * few hundred dependency files is most of the difference between a 2.5 s and a sub-second
 * cold start. better-sqlite3 (both releases, native addons; src/store/sqlite-binding.ts
 * picks one at start) and esbuild (which builds the booking page at run time) stay outside.
 * `--outfile PATH` writes the bundle elsewhere under the project (test/docs/start-and-book.test.ts
 * builds its own, so that no other run's build replaces it while it starts).
 */
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { PROJECT_ROOT } from '../src/project-root.ts'

const { values: args } = parseArgs({ options: { outfile: { type: 'string', default: 'dist/server.js' } } })

await build({
  absWorkingDir: PROJECT_ROOT,
  entryPoints: ['src/server.ts'],
  outfile: args.outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: ['better-sqlite3', 'better-sqlite3-13', 'esbuild', 'pg-native'],
  // The bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
})
