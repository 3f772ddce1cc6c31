import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { allPromoCodes, allTours, type CatalogPolicy } from './catalog-model.ts'
import { PolicyView } from './catalog-policy.tsx'
import { PromoCodesView } from './catalog-promo-codes.tsx'
import { NewTourView, TourView } from './catalog-tour.tsx'
import { CatalogNav } from './catalog-nav.tsx'
import { LanguagesView } from './catalog-languages.tsx'
import { loadLanguages, TranslationsView } from './catalog-translations.tsx'
import { tourGaps } from './translation-model.ts'
import { languageName, STRINGS } from './translation-strings.ts'
import { NotFoundView } from './not-found.tsx'
import './catalog.css'

/**
 * The catalog, for managers (issue 17): tours and their editor, promo codes and the
 * cancellation policy, the instance's languages and each tour's translations (issue 29), all
 * through the operator API's catalog routes. Paths: `catalog`, `catalog/tours/<id>`,
 * `catalog/tours/<id>/translations`, `catalog/tours/new`, `catalog/promo-codes`,
 * `catalog/policy`, `catalog/languages`.
 */
export function CatalogView({ path }: { path: string }) {
  const [, part = '', id = '', ...rest] = path.split('/')
  if (part === '' || (part === 'tours' && !id)) return <CatalogHome />
  if (part === 'promo-codes' && !id) return <PromoCodesView />
  if (part === 'policy' && !id) return <PolicyView />
  if (part === 'languages' && !id) return <LanguagesView />
  if (part === 'tours' && id && id !== 'new' && rest.length === 1 && rest[0] === 'translations') return <TranslationsView id={decodeURIComponent(id)} />
  if (part === 'tours' && id && rest.length === 0) return id === 'new' ? <NewTourView /> : <TourView id={decodeURIComponent(id)} />
  return <NotFoundView />
}

/** Every tour (archived ones marked, each with what its translations lack), with a word on the promo codes and the policy. */
function CatalogHome() {
  const { api, formats } = useOffice()
  const [state, reload] = useLoad(() => Promise.all([allTours(api), allPromoCodes(api), api.get<CatalogPolicy>('/policy'), loadLanguages(api)]), [])
  const today = formats.operatorDate(new Date().toISOString())
  return (
    <>
      <CatalogNav current="tours" />
      <h1 tabIndex={-1}>Catalog</h1>
      <LoadState state={state} what="the catalog" retry={reload} />
      {state.kind === 'ready' && (() => {
        const [tours, codes, policy, languages] = state.data
        const others = languages.slice(1)
        const valid = codes.filter((c) => c.valid_from <= today && today <= c.valid_until && (c.max_uses === undefined || c.uses < c.max_uses)).length
        return (
          <>
            <section aria-labelledby="catalog-tours">
              <div class="section-head">
                <h2 id="catalog-tours">Tours <span class="count">({tours.length})</span></h2>
                <Link to="catalog/tours/new" class="button quiet">Add a tour</Link>
              </div>
              <ul class="cards catalog-tours">
                {tours.map((tour) => (
                  <li class="card catalog-tour" key={tour.id} data-archived={tour.archived || undefined}>
                    <h3><Link to={`catalog/tours/${encodeURIComponent(tour.id)}`}>{tour.title}</Link></h3>
                    <p>
                      {tour.units
                        ? tour.units.map((unit) => `${unit.name} ${formats.price(unit.price)}`).join(', ')
                        : `${formats.price(tour.price)} per person`} · {tour.capacity} seats · {tour.party.min}–{tour.party.max} per booking
                      {' · '}{tour.confirmation === 'instant' ? 'instant confirmation' : 'on request'}
                    </p>
                    {others.length > 0 && (() => {
                      const gaps = tourGaps(tour, others)
                      return (
                        <p class="translation-line">
                          <Link to={`catalog/tours/${encodeURIComponent(tour.id)}/translations`}>{STRINGS.tour.listLine}</Link>
                          {': '}{others.map((language) => `${languageName(language)} ${STRINGS.missingOf(gaps.missing[language], gaps.total)}`).join(' · ')}
                        </p>
                      )
                    })()}
                    {tour.archived && <ul class="badges"><li class="badge" data-tone="warn">Archived: guests do not see it</li></ul>}
                  </li>
                ))}
              </ul>
            </section>
            <section class="card catalog-summary" aria-labelledby="catalog-promo">
              <h2 id="catalog-promo">Promo codes</h2>
              <p>{codes.length === 0 ? 'No promo codes.' : `${codes.length} ${codes.length === 1 ? 'code' : 'codes'}, ${valid} usable today.`}</p>
              <p><Link to="catalog/promo-codes">See and add promo codes</Link></p>
            </section>
            <section class="card catalog-summary" aria-labelledby="catalog-policy">
              <h2 id="catalog-policy">Cancellation policy <span class="count">version {policy.version}</span></h2>
              <p>{policy.summary}</p>
              <p><Link to="catalog/policy">Change the policy</Link></p>
            </section>
          </>
        )
      })()}
    </>
  )
}
