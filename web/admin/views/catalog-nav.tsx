import { Link } from '../router.tsx'
import { STRINGS } from './translation-strings.ts'

/** The catalog's own pages, above the heading of each. */
export function CatalogNav({ current }: { current: 'tours' | 'promo-codes' | 'policy' | 'languages' }) {
  const links = [
    ['tours', 'catalog', 'Tours'], ['promo-codes', 'catalog/promo-codes', 'Promo codes'], ['policy', 'catalog/policy', 'Cancellation policy'],
    ['languages', 'catalog/languages', STRINGS.nav],
  ] as const
  return (
    <nav class="catalog-nav" aria-label="Catalog">
      {links.map(([name, to, text]) => <Link key={name} to={to} aria-current={current === name ? 'page' : undefined}>{text}</Link>)}
    </nav>
  )
}
