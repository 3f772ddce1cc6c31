import { useMemo, useState } from 'preact/hooks'
import type { AdminApi } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { FormEnd, FormFields, TextField } from './catalog-fields.tsx'
import type { EditSummary, OperatorTour } from './catalog-model.ts'
import { CatalogNav } from './catalog-nav.tsx'
import { useDraftSaving } from './catalog-saving.ts'
import {
  instanceLanguages, translatableTexts, translationDraft, translationsOf, type TranslatableText, type TranslationDraft,
} from './translation-model.ts'
import { languageName, STRINGS } from './translation-strings.ts'

const S = STRINGS.tour

type TourAnswer = EditSummary & { tour: OperatorTour }

/** The instance's languages, its default first (GET /settings). */
export const loadLanguages = async (api: AdminApi): Promise<readonly string[]> =>
  instanceLanguages((await api.get<{ languages: string[] | null }>('/settings')).languages)

/** JSON with keys in one order, so two translations compare equal whatever order their keys were set in. */
const sortedJson = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
  : v))

/** A tour's texts beside their translations (`catalog/tours/<id>/translations`), saved by PATCH /tours/{id} with the translations whole. */
export function TranslationsView({ id }: { id: string }) {
  const { api } = useOffice()
  const [state, reload] = useLoad(() => Promise.all([api.get<OperatorTour>(`/tours/${encodeURIComponent(id)}`), loadLanguages(api)]), [id])
  const tourPath = `catalog/tours/${encodeURIComponent(id)}`
  return (
    <>
      <CatalogNav current="tours" />
      <h1 tabIndex={-1}>{S.heading} <span class="subtitle">{state.kind === 'ready' ? state.data[0].title : id}</span></h1>
      {state.kind === 'ready' && <p><Link to={tourPath}>{S.backToTour(state.data[0].title)}</Link></p>}
      <LoadState state={state} what="the tour" retry={reload} />
      {state.kind === 'ready' && (state.data[1].length < 2
        ? <p class="card">{S.onlyDefault} <Link to="catalog/languages">{S.addLanguage}</Link></p>
        : <TranslationsForm key={id} tour={state.data[0]} languages={state.data[1]} />)}
    </>
  )
}

function TranslationsForm({ tour: loaded, languages }: { tour: OperatorTour, languages: readonly string[] }) {
  const { api } = useOffice()
  const [defaultLanguage, ...others] = languages
  const [tour, setTour] = useState(loaded)
  const texts = useMemo(() => translatableTexts(tour), [tour])
  const draftOf = (of: OperatorTour) => translationDraft(of.translations, others, translatableTexts(of).map((text) => text.path))
  const { form, summary, errors, clear, draft, setDraft, busy, saved, save, unchanged } = useDraftSaving<TranslationDraft>(() => draftOf(loaded))
  // From the draft as it is now: two inputs within one frame (autofill, a test) must both stick.
  const set = (language: string, path: string, value: string) =>
    setDraft((current) => ({ ...current, [language]: { ...current[language], [path]: value } }))

  async function submit(event: Event): Promise<void> {
    event.preventDefault()
    clear()
    const translations = translationsOf(tour.translations, draft)
    if (sortedJson(translations) === sortedJson(translationsOf(tour.translations, draftOf(tour)))) {
      unchanged(S.nothingChanged)
      return
    }
    await save(async () => {
      const answer = await api.patch<TourAnswer>(`/tours/${encodeURIComponent(tour.id)}`, { translations })
      setTour(answer.tour)
      return { draft: draftOf(answer.tour), text: S.saved }
    })
  }

  const group = (heading: string, id: string, items: TranslatableText[]) => items.length > 0 && (
    <section class="card catalog-section" aria-labelledby={id} key={id}>
      <h2 id={id}>{heading}</h2>
      {items.map((text) => <TranslatedText key={text.path} text={text} defaultLanguage={defaultLanguage} languages={others} draft={draft} onInput={set} />)}
    </section>
  )
  const owned = (kind: 'unit' | 'addon') => {
    const ids = [...new Set(texts.flatMap((text) => (text.owner.kind === kind ? [text.owner.id] : [])))]
    return ids.map((ownerId) => texts.filter((text) => text.owner.kind === kind && text.owner.id === ownerId))
  }

  return (
    <form ref={form} class="catalog-form" noValidate onSubmit={submit} aria-label={`${S.heading}: ${tour.title}`}>
      <p class="hint">{S.intro(languageName(defaultLanguage))}</p>
      <div class="card translation-counts">
        <h2 id="translation-counts">{S.countsLabel}</h2>
        <ul aria-labelledby="translation-counts">
          {others.map((language) => {
            const missing = texts.filter((text) => draft[language][text.path].trim() === '').length
            return <li key={language} data-language={language} data-missing={missing}>{S.count(languageName(language), missing, texts.length)}</li>
          })}
        </ul>
      </div>
      <FormFields prefix="tr" errors={errors}>
        {group(S.sectionTour, 'tr-tour', texts.filter((text) => text.owner.kind === 'tour'))}
        {owned('unit').map((items, i) => group(S.unitHeading(ownerName(items[0])), `tr-unit-${i}`, items))}
        {owned('addon').map((items, i) => group(S.addonHeading(ownerName(items[0])), `tr-addon-${i}`, items))}
      </FormFields>
      <FormEnd errors={errors} summaryRef={summary} saved={saved} draft={draft}>
        <button type="submit" class="button" disabled={busy}>{busy ? STRINGS.saving : S.save}</button>
        <button type="button" class="button quiet" disabled={busy} onClick={() => { clear(); setDraft(draftOf(tour)) }}>{STRINGS.undo}</button>
      </FormEnd>
    </form>
  )
}

const ownerName = (text: TranslatableText) => (text.owner.kind === 'tour' ? '' : text.owner.name)

/** One text: the default's words, then an input per other language, each marked while it is missing. */
function TranslatedText({ text, defaultLanguage, languages, draft, onInput }: {
  text: TranslatableText
  defaultLanguage: string
  languages: readonly string[]
  draft: TranslationDraft
  onInput: (language: string, path: string, value: string) => void
}) {
  const missingCount = languages.filter((language) => draft[language][text.path].trim() === '').length
  return (
    <fieldset class="translation" data-missing={missingCount}>
      <legend>{S.fields[text.field]}{missingCount > 0 && <> <span class="badge" data-tone="warn">{STRINGS.missing}</span></>}</legend>
      <div class="translation-grid">
        <div class="translation-source">
          <p class="translation-language">{S.defaultText(languageName(defaultLanguage))}</p>
          <p class="source-text" lang={defaultLanguage}>{text.source}</p>
        </div>
        {languages.map((language) => {
          const value = draft[language][text.path]
          const missing = value.trim() === ''
          return (
            <TextField key={language} path={`translations.${language}.${text.path}`} label={languageName(language)} lang={language} value={value}
              multiline={text.multiline} rows={text.field === 'description' && text.owner.kind === 'tour' ? 5 : 2}
              class={missing ? 'translation-missing' : undefined}
              hint={missing ? <><span class="badge" data-tone="warn">{STRINGS.missing}</span> {S.missingHint(languageName(language))}</> : undefined}
              onInput={(typed) => onInput(language, text.path, typed)} />
          )
        })}
      </div>
    </fieldset>
  )
}
