import { useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { FormEnd, FormFields, TextField } from './catalog-fields.tsx'
import { allTours, wordsOf, type CatalogPolicy, type EditSummary, type OperatorTour } from './catalog-model.ts'
import { CatalogNav } from './catalog-nav.tsx'
import { useDraftSaving } from './catalog-saving.ts'
import { loadLanguages } from './catalog-translations.tsx'
import { instanceLanguages, policyGaps, tourGaps } from './translation-model.ts'
import { languageName, STRINGS } from './translation-strings.ts'

const S = STRINGS.languages

/** The instance's languages (`catalog/languages`): the list, default first, edited by PATCH /settings, and what each tour lacks in each. */
export function LanguagesView() {
  const { api } = useOffice()
  const [state, reload] = useLoad(() => Promise.all([loadLanguages(api), allTours(api), api.get<CatalogPolicy>('/policy')]), [])
  return (
    <>
      <CatalogNav current="languages" />
      <h1 tabIndex={-1}>{S.heading}</h1>
      <p class="hint">{S.intro}</p>
      <LoadState state={state} what="the languages" retry={reload} />
      {state.kind === 'ready' && (
        <>
          <LanguagesForm loaded={state.data[0]} onSaved={reload} />
          <TranslationGaps languages={state.data[0]} tours={state.data[1]} policy={state.data[2]} />
        </>
      )}
    </>
  )
}

function LanguagesForm({ loaded, onSaved }: { loaded: readonly string[], onSaved: () => Promise<void> }) {
  const { api, formats } = useOffice()
  const [original, setOriginal] = useState(loaded)
  const { form, summary, errors, clear, draft, setDraft, busy, saved, save, unchanged } = useDraftSaving(loaded.join(', '))
  const listed = wordsOf(draft)

  async function submit(event: Event): Promise<void> {
    event.preventDefault()
    clear()
    if (listed.join(',') === original.join(',')) {
      unchanged(S.nothingChanged)
      return
    }
    await save(async () => {
      const answer = await api.patch<EditSummary & { settings: { languages: string[] | null } }>('/settings', { languages: listed })
      const next = instanceLanguages(answer.settings.languages)
      setOriginal(next)
      return { draft: next.join(', '), text: S.saved(formats.list(next.map(languageName))) }
    }, onSaved)
  }

  return (
    <form ref={form} class="catalog-form languages-form" noValidate onSubmit={submit} aria-label={S.legend}>
      <FormFields prefix="settings" errors={errors}>
        <section class="card catalog-section" aria-labelledby="languages-legend">
          <h2 id="languages-legend">{S.legend}</h2>
          <TextField path="languages" label={S.field} value={draft} onInput={setDraft} hint={S.fieldHint} />
          <p class="language-order" id="languages-order">
            {listed.length === 0 ? S.none : S.inOrder(formats.list(listed.map((tag, i) => (i === 0 ? S.asDefault(languageName(tag)) : languageName(tag)))))}
          </p>
        </section>
      </FormFields>
      <FormEnd errors={errors} summaryRef={summary} saved={saved} draft={draft}>
        <button type="submit" class="button" disabled={busy}>{busy ? STRINGS.saving : S.save}</button>
        <button type="button" class="button quiet" disabled={busy} onClick={() => { clear(); setDraft(original.join(', ')) }}>{STRINGS.undo}</button>
      </FormEnd>
    </form>
  )
}

/** A table of tours (and the policy) by language: how many texts each translation still lacks. */
function TranslationGaps({ languages, tours, policy }: { languages: readonly string[], tours: OperatorTour[], policy: CatalogPolicy }) {
  const others = languages.slice(1)
  const policyMissing = policyGaps(policy, others)
  return (
    <section class="card catalog-section" aria-labelledby="translation-gaps">
      <h2 id="translation-gaps">{S.gapsHeading}</h2>
      {others.length === 0 ? <p>{S.onlyDefault}</p> : (
        <>
          <p class="hint">{S.gapsIntro}</p>
          <div class="table-scroll">
            <table class="translation-gaps">
              <caption>{S.gapsCaption}</caption>
              <thead>
                <tr><th scope="col">{S.whatColumn}</th>{others.map((language) => <th scope="col" key={language}>{languageName(language)}</th>)}</tr>
              </thead>
              <tbody>
                {tours.map((tour) => {
                  const gaps = tourGaps(tour, others)
                  return (
                    <tr key={tour.id} data-tour={tour.id}>
                      <th scope="row">
                        <Link to={`catalog/tours/${encodeURIComponent(tour.id)}/translations`}>{tour.title}</Link>{tour.archived && ` ${S.archived}`}
                      </th>
                      {others.map((language) => <GapCell key={language} missing={gaps.missing[language]} total={gaps.total} />)}
                    </tr>
                  )
                })}
                <tr data-policy>
                  <th scope="row"><Link to="catalog/policy">{S.policyRow}</Link></th>
                  {others.map((language) => <GapCell key={language} missing={policyMissing.includes(language) ? 1 : 0} total={1} />)}
                </tr>
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  )
}

function GapCell({ missing, total }: { missing: number, total: number }) {
  return <td data-missing={missing}>{missing === 0 ? <span class="badge" data-tone="good">{STRINGS.complete}</span> : STRINGS.missingOf(missing, total)}</td>
}
