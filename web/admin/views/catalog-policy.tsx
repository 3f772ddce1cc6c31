import { useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { FormEnd, FormFields, TextField } from './catalog-fields.tsx'
import { policyDraft, policyTermsOf, rowKey, type CatalogPolicy, type EditSummary, type PolicyDraft } from './catalog-model.ts'
import { CatalogNav } from './catalog-nav.tsx'
import { useDraftSaving } from './catalog-saving.ts'
import { loadLanguages } from './catalog-translations.tsx'
import { languageName, STRINGS } from './translation-strings.ts'

type PolicyAnswer = EditSummary & { policy: CatalogPolicy }

/** The cancellation policy in force, its summary beside its translations; saving new terms publishes a new version (PUT /policy). */
export function PolicyView() {
  const { api } = useOffice()
  const [state, reload] = useLoad(() => Promise.all([api.get<CatalogPolicy>('/policy'), loadLanguages(api)]), [])
  return (
    <>
      <CatalogNav current="policy" />
      <h1 tabIndex={-1}>Cancellation policy{state.kind === 'ready' && <span class="subtitle">Version {state.data[0].version}</span>}</h1>
      <p class="hint">New bookings take the version in force when they are made; existing bookings keep the terms they were made under.</p>
      <LoadState state={state} what="the policy" retry={reload} />
      {state.kind === 'ready' && <PolicyForm policy={state.data[0]} languages={state.data[1]} onSaved={reload} />}
    </>
  )
}

function PolicyForm({ policy: loaded, languages, onSaved }: { policy: CatalogPolicy, languages: readonly string[], onSaved: () => Promise<void> }) {
  const [defaultLanguage, ...others] = languages
  const { api, formats } = useOffice()
  const [policy, setPolicy] = useState(loaded)
  const { form, summary, errors, clear, draft, setDraft, busy, saved, save } = useDraftSaving<PolicyDraft>(() => policyDraft(loaded, others))
  // From the draft as it is now, not as this render saw it: two inputs within one frame
  // (autofill, a fast typist, a test) must both stick.
  const set = (change: Partial<PolicyDraft>) => setDraft((current) => ({ ...current, ...change }))
  const setTier = (index: number, change: Partial<PolicyDraft['tiers'][number]>) => set({ tiers: draft.tiers.map((t, i) => (i === index ? { ...t, ...change } : t)) })

  async function submit(event: Event): Promise<void> {
    event.preventDefault()
    clear()
    await save(async () => {
      const answer = await api.put<PolicyAnswer>('/policy', policyTermsOf(draft, policy))
      setPolicy(answer.policy)
      const text = answer.changes.length === 0
        ? `Nothing had changed: version ${answer.policy.version} stays in force.`
        : `Version ${answer.policy.version} published. Bookings made from now on take it; existing bookings keep their terms.`
      return { draft: policyDraft(answer.policy, others), text }
    }, onSaved)
  }

  const fee = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? '' : Number(text) === 0 ? 'free of charge' : `${formats.percent(Number(text))} of the total`)
  return (
    <form ref={form} class="catalog-form" noValidate onSubmit={submit} aria-label={`Cancellation policy, version ${policy.version}`}>
      <FormFields prefix="policy" errors={errors}>
        <section class="card catalog-section" aria-labelledby="policy-terms">
          <h2 id="policy-terms">Terms</h2>
          <TextField path="summary" label="The policy in plain words" multiline rows={4} value={draft.summary} onInput={(summary) => set({ summary })}
            hint="Guests read this on the booking page and in their emails" />
          {others.length > 0 && (
            <fieldset class="translation" data-missing={others.filter((language) => draft.translations[language].trim() === '').length}>
              <legend>{STRINGS.policy.heading}</legend>
              <p class="hint">{STRINGS.policy.hint(languageName(defaultLanguage))}</p>
              {others.map((language) => {
                const missing = draft.translations[language].trim() === ''
                return (
                  <TextField key={language} path={`translations.${language}.summary`} label={STRINGS.policy.field(languageName(language))} lang={language} multiline rows={3}
                    value={draft.translations[language]} class={missing ? 'translation-missing' : undefined}
                    hint={missing ? <><span class="badge" data-tone="warn">{STRINGS.missing}</span> {STRINGS.policy.missingHint(languageName(language))}</> : undefined}
                    onInput={(summary) => setDraft((current) => ({ ...current, translations: { ...current.translations, [language]: summary } }))} />
                )
              })}
            </fieldset>
          )}
          <h3>Cancellation fees</h3>
          <p class="hint">Of the tiers a cancellation meets, the one with the most hours applies. End with a 0-hour tier so every moment before the start is covered.</p>
          <ol class="rows">
            {draft.tiers.map((tier, i) => (
              <li class="row tier" key={tier.key}>
                <div class="field-pair">
                  <TextField path={`tiers.${i}.hours_before_start`} label={`Tier ${i + 1}: at least (hours before the start)`} type="number" inputMode="numeric"
                    value={tier.hours_before_start} onInput={(hours_before_start) => setTier(i, { hours_before_start })} />
                  <TextField path={`tiers.${i}.fee_percent`} label={`Tier ${i + 1}: fee (% of the total)`} type="number" inputMode="numeric"
                    value={tier.fee_percent} onInput={(fee_percent) => setTier(i, { fee_percent })} hint={fee(tier.fee_percent) || undefined} />
                </div>
                <button type="button" class="button quiet" disabled={draft.tiers.length === 1} onClick={() => {
                  set({ tiers: draft.tiers.filter((_, j) => j !== i) })
                  requestAnimationFrame(() => document.getElementById('add-tier')?.focus())
                }}>Remove tier {i + 1}</button>
              </li>
            ))}
          </ol>
          <button type="button" class="button quiet" id="add-tier" onClick={() => {
            set({ tiers: [...draft.tiers, { key: rowKey(), hours_before_start: '', fee_percent: '' }] })
            requestAnimationFrame(() => document.querySelectorAll<HTMLElement>('.tier')[draft.tiers.length]?.querySelector('input')?.focus())
          }}>Add a tier</button>
          <TextField path="no_show_fee_percent" label="No-show fee (% of the total)" type="number" inputMode="numeric" value={draft.no_show_fee_percent}
            onInput={(no_show_fee_percent) => set({ no_show_fee_percent })} hint={fee(draft.no_show_fee_percent) || undefined} />
        </section>
      </FormFields>
      <FormEnd errors={errors} summaryRef={summary} saved={saved} draft={draft}>
        <button type="submit" class="button" disabled={busy}>{busy ? 'Publishing…' : 'Publish as a new version'}</button>
        <button type="button" class="button quiet" disabled={busy} onClick={() => { clear(); setDraft(policyDraft(policy, others)) }}>Undo my changes</button>
      </FormEnd>
    </form>
  )
}
