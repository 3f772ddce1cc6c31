import { basename } from 'node:path'
import { build } from 'esbuild'
import { PROJECT_ROOT } from '../project-root.ts'

export interface PageAsset {
  contentType: string
  body: Buffer
}

export interface PageBundle {
  /** URL paths of the page's script and style, named by content hash so they can be cached forever. */
  script: string
  style: string
  /**
   * File name (the last segment of `script` or `style`) to its content; also the chunks the
   * script imports when it needs them (the booking page's words in each language but English).
   */
  assets: Map<string, PageAsset>
}

export const ASSET_PATH = '/book/_assets'
export const ADMIN_ASSET_PATH = '/admin/_assets'

/** What one bundle is made from, what its files are called and where they are served. */
interface BundleSpec {
  entry: string
  name: string
  assetPath: string
}

const BOOKING_PAGE: BundleSpec = { entry: 'web/src/main.ts', name: 'booking-page', assetPath: ASSET_PATH }
const BACK_OFFICE: BundleSpec = { entry: 'web/admin/main.tsx', name: 'back-office', assetPath: ADMIN_ASSET_PATH }

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** Bundles a page of web/ with esbuild in memory: no build step before `npm start` or `npm test`, nothing written to disk. */
async function bundlePage({ entry, name: bundleName, assetPath }: BundleSpec): Promise<PageBundle> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    outdir: 'bundle',
    entryNames: `${bundleName}-[hash]`,
    // A dynamic import() becomes a chunk of its own, fetched only when the page needs it.
    splitting: true,
    chunkNames: `${bundleName}-chunk-[hash]`,
    metafile: true,
    // The back office is Preact: its JSX compiles to preact/jsx-runtime calls.
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  const assets = new Map<string, PageAsset>()
  let script = ''
  let style = ''
  const entryOutputs = new Set(Object.entries(result.metafile.outputs).filter(([, output]) => output.entryPoint === entry).map(([path]) => basename(path)))
  for (const file of result.outputFiles) {
    const name = basename(file.path)
    const extension = name.slice(name.lastIndexOf('.'))
    const contentType = CONTENT_TYPES[extension]
    if (!contentType) continue
    assets.set(name, { contentType, body: Buffer.from(file.contents) })
    if (extension === '.css') style = `${assetPath}/${name}`
    else if (entryOutputs.has(name)) script = `${assetPath}/${name}`
  }
  if (!script || !style) throw new Error(`bundling ${entry} gave no script or no style`)
  return { script, style, assets }
}

/**
 * A bundle built on first use and then kept for the life of the process (every app built in
 * it shares it). Building lazily keeps the API's cold start free of it; a failed build is
 * retried on the next request.
 */
function keptBundle(spec: BundleSpec): () => Promise<PageBundle> {
  let pending: Promise<PageBundle> | undefined
  return () => {
    pending ??= bundlePage(spec).catch((err) => {
      pending = undefined
      throw err
    })
    return pending
  }
}

/** The booking page's bundle. */
export const pageBundle = keptBundle(BOOKING_PAGE)
/** The back office's bundle (web/admin). */
export const adminBundle = keptBundle(BACK_OFFICE)
