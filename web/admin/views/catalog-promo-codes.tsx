import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { Choices, ErrorSummary, FormFields, TextField, useFormErrors } from './catalog-fields.tsx'
import {
  allPromoCodes, allTours, changedFields, Money, promoDraft, promoOf,
  type EditSummary, type OperatorPromoCode, type OperatorTour, type PromoDraft,
} from './catalog-model.ts'
import { CatalogNav } from './catalog-nav.tsx'

type PromoAnswer = EditSummary & { promo_code: OperatorPromoCode }

const promoId = (code: string) => `promo-${code}`

/** Every promo code with its terms and uses; each can be changed, and new ones added. */
export function PromoCodesView() {
  const { api, formats, me, announce } = useOffice()
  const money = useMemo(() => new Money(formats.locale, me.instance.currency), [formats.locale, me.instance.currency])
  const [state, reload] = useLoad(() => Promise.all([allPromoCodes(api), allTours(api)]), [])
  const [editing, setEditing] = useState<string | null>(null)
  const [focusOn, setFocusOn] = useState<string | null>(null)
  const [formKey, setFormKey] = useState(0)

  // After a save, focus goes to what changed: the new code's heading, or the edited code's Edit button.
  useEffect(() => {
    if (focusOn && state.kind === 'ready') {
      document.getElementById(focusOn)?.focus()
      setFocusOn(null)
    }
  }, [state, focusOn, editing])

  const titles = state.kind === 'ready' ? new Map(state.data[1].map((t) => [t.id, t.title])) : new Map<string, string>()
  const terms = (promo: OperatorPromoCode) => (promo.kind === 'percent' ? `${formats.percent(promo.value)} off` : `${formats.price(promo.value)} off`)

  return (
    <>
      <CatalogNav current="promo-codes" />
      <h1 tabIndex={-1}>Promo codes</h1>
      <p class="hint">Guests type a code at checkout, in any case. Bookings already made keep their discount when a code changes.</p>
      <LoadState state={state} what="the promo codes" retry={reload} />
      {state.kind === 'ready' && (
        <>
          {state.data[0].length === 0 ? <p>No promo codes yet.</p> : (
            <ul class="cards promo-codes" aria-label="Promo codes">
              {state.data[0].map((promo) => (
                <li class="card promo-code" key={promo.code}>
                  <h2 id={promoId(promo.code)} tabIndex={-1}><span class="code">{promo.code}</span> {terms(promo)}</h2>
                  <p>Valid {formats.day(promo.valid_from)} to {formats.day(promo.valid_until)}</p>
                  <p>{promo.tour_ids ? `Only on ${formats.list(promo.tour_ids.map((id) => titles.get(id) ?? id))}` : 'On every tour'}</p>
                  <p>{promo.max_uses === undefined ? `Used ${promo.uses} ${promo.uses === 1 ? 'time' : 'times'}, no limit` : `Used ${promo.uses} of ${promo.max_uses} times`}</p>
                  {editing === promo.code
                    ? <PromoForm promo={promo} tours={state.data[1]} money={money} onCancel={() => { setEditing(null); setFocusOn(`edit-${promo.code}`) }}
                        onSaved={async (answer) => {
                          setEditing(null)
                          await reload()
                          announce(answer.changes.length === 0 ? `Nothing had changed on ${promo.code}.` : `${promo.code} saved; guests get the new terms now.`)
                          setFocusOn(`edit-${promo.code}`)
                        }} />
                    : (
                      <div class="actions">
                        <button type="button" class="button quiet" id={`edit-${promo.code}`} aria-label={`Change ${promo.code}`} onClick={() => setEditing(promo.code)}>Change</button>
                      </div>
                    )}
                </li>
              ))}
            </ul>
          )}
          <section class="card catalog-section" aria-labelledby="new-promo">
            <h2 id="new-promo">Add a promo code</h2>
            <PromoForm key={formKey} promo={null} tours={state.data[1]} money={money} onSaved={async (answer) => {
              await reload()
              setFormKey((k) => k + 1)
              announce(`${answer.promo_code.code} added; guests can use it now.`)
              setFocusOn(promoId(answer.promo_code.code))
            }} />
          </section>
        </>
      )}
    </>
  )
}

interface PromoFormProps {
  promo: OperatorPromoCode | null
  tours: OperatorTour[]
  money: Money
  onSaved: (answer: PromoAnswer) => Promise<void>
  onCancel?: () => void
}

/** A new promo code (POST /promo-codes), or a change to one (PATCH with the fields that changed). */
function PromoForm({ promo, tours, money, onSaved, onCancel }: PromoFormProps) {
  const { api, formats } = useOffice()
  const today = formats.operatorDate(new Date().toISOString())
  const [draft, setDraft] = useState<PromoDraft>(() => (promo ? promoDraft(promo, money)
    : { code: '', kind: 'percent', value: '', valid_from: today, valid_until: '', tour_ids: [], max_uses: '' }))
  const [busy, setBusy] = useState(false)
  const { form, summary, errors, clear, showProblems, showRefusal } = useFormErrors()
  // From the draft as it is now, not as this render saw it: two inputs within one frame
  // (autofill, a fast typist, a test) must both stick.
  const set = (change: Partial<PromoDraft>) => setDraft((current) => ({ ...current, ...change }))
  const prefix = promo ? `promo-${promo.code}` : 'promo-new'

  // Before the browser paints the form (useLayoutEffect, not useEffect): a focus moved a frame
  // later would take away the field someone already started typing in, and their keys with it.
  useLayoutEffect(() => {
    if (promo) form.current?.querySelector<HTMLElement>('input')?.focus()
  }, [])

  async function save(event: Event): Promise<void> {
    event.preventDefault()
    clear()
    const { promo: edited, problems } = promoOf(draft, money)
    if (problems.length > 0) {
      showProblems(problems)
      return
    }
    setBusy(true)
    try {
      let answer: PromoAnswer
      if (promo) {
        const { code: _code, ...changed } = changedFields(promoOf(promoDraft(promo, money), money).promo, edited)
        answer = Object.keys(changed).length === 0
          ? { dry_run: false, catalog_version: 0, changes: [], orphaned_departures: [], capacity_kept: [], promo_code: promo }
          : await api.patch<PromoAnswer>(`/promo-codes/${encodeURIComponent(promo.code)}`, changed)
      } else {
        const body = Object.fromEntries(Object.entries(edited).filter(([, value]) => value !== null))
        answer = await api.post<PromoAnswer>('/promo-codes', body)
      }
      setBusy(false)
      await onSaved(answer)
    } catch (err) {
      setBusy(false)
      showRefusal(err)
    }
  }

  return (
    <form ref={form} class="catalog-form promo-form" noValidate onSubmit={save} aria-label={promo ? `Change ${promo.code}` : 'New promo code'}>
      <FormFields prefix={prefix} errors={errors}>
        {!promo && <TextField path="code" label="Code" value={draft.code} onInput={(code) => set({ code: code.toUpperCase() })}
          hint="2–64 capital letters, digits and hyphens, e.g. SUMMER-10" />}
        <Choices path="kind" legend="Discount" kind="radio" selected={[draft.kind]}
          options={[{ value: 'percent', label: 'A percentage of the total' }, { value: 'fixed', label: `A fixed amount (${money.currency})` }]}
          onChange={([kind]) => set({ kind: kind as PromoDraft['kind'] })} />
        {draft.kind === 'percent'
          ? <TextField path="value" label="Percent off" type="number" inputMode="numeric" value={draft.value} onInput={(value) => set({ value })} hint="1 to 100" />
          : <TextField path="value" label={`Amount off (${money.currency})`} prefix={money.symbol} inputMode="decimal" value={draft.value} onInput={(value) => set({ value })} />}
        <div class="field-pair">
          <TextField path="valid_from" label="First day" type="date" value={draft.valid_from} onInput={(valid_from) => set({ valid_from })} />
          <TextField path="valid_until" label="Last day" type="date" value={draft.valid_until} onInput={(valid_until) => set({ valid_until })} />
        </div>
        <Choices path="tour_ids" legend="Tours" kind="checkbox" selected={draft.tour_ids} class="tour-choices"
          options={tours.map((tour) => ({ value: tour.id, label: tour.archived ? `${tour.title} (archived)` : tour.title }))}
          onChange={(tour_ids) => set({ tour_ids })} hint="None ticked: every tour" />
        <TextField path="max_uses" label="Most uses in all" type="number" inputMode="numeric" value={draft.max_uses} onInput={(max_uses) => set({ max_uses })}
          hint="Empty: no limit. A cancelled or declined booking gives its use back." />
      </FormFields>
      <ErrorSummary errors={errors} summaryRef={summary} />
      <div class="actions">
        <button type="submit" class="button" disabled={busy}>{busy ? 'Saving…' : promo ? `Save ${promo.code}` : 'Add the promo code'}</button>
        {onCancel && <button type="button" class="button quiet" onClick={onCancel}>Keep it as it was</button>}
      </div>
    </form>
  )
}
