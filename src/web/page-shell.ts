import type { Instance } from '../catalog/catalog-file.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { languagesOf } from '../domain/translation.ts'
import type { PageBundle } from './page-bundle.ts'

/**
 * The Content-Security-Policy of the pages the bundler serves: scripts, styles and API calls
 * from this service only, nothing inline; `frameAncestors` says who may frame the page. The
 * JSON API keeps `default-src 'none'` (see src/http/security-headers.ts).
 */
export function pagePolicy(frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ')
}

/**
 * The HTML document of a bundled page: no script or style of its own (the policy forbids
 * inline ones); the instance travels as data attributes of `body`'s root element that the
 * bundled script reads. `title` and `body` are HTML, already escaped.
 */
export function pageDocument(title: string, bundle: PageBundle, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${bundle.style}">
<script type="module" src="${bundle.script}"></script>
</head>
<body>
${body}
</body>
</html>
`
}

/** The data attributes every page's script reads: where its API is, and the instance's name, zone and currency. */
export function instanceAttributes(instance: Instance, api: string): string {
  return `data-api="${escapeHtml(api)}" data-name="${escapeHtml(instance.name)}" data-timezone="${escapeHtml(instance.timezone)}" data-currency="${escapeHtml(instance.currency)}"`
}

/** One instance's booking page. */
export function pageShell(instance: Instance, bundle: PageBundle): string {
  const name = escapeHtml(instance.name)
  return pageDocument(`Book a tour · ${name}`, bundle, `<header class="site-header"><p class="operator-name">${name}</p></header>
<main id="app" ${instanceAttributes(instance, `/api/${instance.prefix}`)} data-languages="${escapeHtml(languagesOf(instance).join(' '))}">
<h1>Book a tour with ${name}</h1>
<noscript><p>This booking page needs JavaScript. You can also book by contacting ${name} directly.</p></noscript>
</main>`)
}
