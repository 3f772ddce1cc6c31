import { basename } from 'node:path'
import { build } from 'esbuild'
import { PROJECT_ROOT } from '../project-root.ts'

const ENTRY = 'web/src/main.ts'

export interface PageAsset {
  contentType: string
  body: Buffer
}

export interface PageBundle {
  /** URL paths of the page's script and style, named by content hash so they can be cached forever. */
  script: string
  style: string
  /** File name (the last segment of `script` or `style`) to its content. */
  assets: Map<string, PageAsset>
}

export const ASSET_PATH = '/book/_assets'

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** Bundles web/ with esbuild in memory: no build step before `npm start` or `npm test`, nothing written to disk. */
async function bundlePage(): Promise<PageBundle> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    outdir: 'bundle',
    entryNames: 'booking-page-[hash]',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  const assets = new Map<string, PageAsset>()
  let script = ''
  let style = ''
  for (const file of result.outputFiles) {
    const name = basename(file.path)
    const extension = name.slice(name.lastIndexOf('.'))
    const contentType = CONTENT_TYPES[extension]
    if (!contentType) continue
    assets.set(name, { contentType, body: Buffer.from(file.contents) })
    if (extension === '.js') script = `${ASSET_PATH}/${name}`
    else style = `${ASSET_PATH}/${name}`
  }
  if (!script || !style) throw new Error(`bundling ${ENTRY} gave no script or no style`)
  return { script, style, assets }
}

let pending: Promise<PageBundle> | undefined

/**
 * The bundle, built on first use and then kept for the life of the process (every app built
 * in it shares it). Building lazily keeps the API's cold start free of it; a failed build is
 * retried on the next request.
 */
export function pageBundle(): Promise<PageBundle> {
  pending ??= bundlePage().catch((err) => {
    pending = undefined
    throw err
  })
  return pending
}
