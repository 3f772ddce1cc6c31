import type { Instance } from '../catalog/catalog-file.ts'
import type { PageBundle } from './page-bundle.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}

/**
 * The HTML document of one instance's booking page. It carries no script or style of its
 * own (the CSP forbids inline ones): the instance's settings travel as data attributes that
 * the bundled script reads.
 */
export function pageShell(instance: Instance, bundle: PageBundle): string {
  const name = escapeHtml(instance.name)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Book a tour · ${name}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${bundle.style}">
<script type="module" src="${bundle.script}"></script>
</head>
<body>
<header class="site-header"><p class="operator-name">${name}</p></header>
<main id="app" data-api="/api/${escapeHtml(instance.prefix)}" data-name="${name}" data-timezone="${escapeHtml(instance.timezone)}" data-currency="${escapeHtml(instance.currency)}">
<h1>Book a tour with ${name}</h1>
<noscript><p>This booking page needs JavaScript. You can also book by contacting ${name} directly.</p></noscript>
</main>
</body>
</html>
`
}
