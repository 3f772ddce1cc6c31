import { useMemo, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { Link, useRouter } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { Choices, FormEnd, FormFields, TextField, useFormErrors } from './catalog-fields.tsx'
import {
  addonDraft, changedFields, Money, newTourBody, newTourDraft, rowKey, slugOf, tourDraft, tourOf,
  type AddonDraft, type EditSummary, type OperatorTour, type TourDraft,
} from './catalog-model.ts'
import { ScheduleEditor } from './catalog-schedule.tsx'
import { UnitsEditor } from './catalog-units.tsx'
import { CatalogNav } from './catalog-nav.tsx'
import { STRINGS } from './translation-strings.ts'

type TourAnswer = EditSummary & { tour: OperatorTour }

/** A tour's page: its editor, loaded from GET /tours/{id}. */
export function TourView({ id }: { id: string }) {
  const { api } = useOffice()
  const [state, reload] = useLoad(() => api.get<OperatorTour>(`/tours/${encodeURIComponent(id)}`), [id])
  // The title as last saved (the heading stays one element, so focus set on it stays there).
  const [title, setTitle] = useState<string | null>(null)
  return (
    <>
      <CatalogNav current="tours" />
      <h1 tabIndex={-1}>{title ?? (state.kind === 'ready' ? state.data.title : 'Tour')} <span class="subtitle">{id}</span></h1>
      <LoadState state={state} what="the tour" retry={reload} />
      {state.kind === 'ready' && <TourEditor key={id} tour={state.data} onSaved={(tour) => setTitle(tour.title)} />}
    </>
  )
}

/** The page that adds a tour (POST /tours). */
export function NewTourView() {
  return (
    <>
      <CatalogNav current="tours" />
      <h1 tabIndex={-1}>New tour</h1>
      <TourEditor tour={null} />
    </>
  )
}

/** What a saved edit did, in a sentence or two: the fields changed, and departures that kept what they had. */
function savedText(answer: EditSummary, formats: ReturnType<typeof useOffice>['formats']): string {
  const fields = answer.changes.flatMap((change) => change.fields)
  const named = (field: string) => (field === 'units' ? 'price categories' : field.replaceAll('_', ' '))
  const parts = [fields.length === 0 ? 'Nothing had changed.' : `Saved ${formats.list(fields.map(named))}; guests see it now.`]
  const unitChanges = answer.changes.flatMap((change) => change.unit_changes ?? [])
  if (unitChanges.length > 0) parts.push(`Price categories: ${unitChanges.join('; ')}.`)
  if (answer.orphaned_departures.length > 0) {
    parts.push(`${answer.orphaned_departures.length} booked ${answer.orphaned_departures.length === 1 ? 'departure is' : 'departures are'} no longer on the schedule and kept for their bookings: `
      + `${formats.list(answer.orphaned_departures.map((d) => formats.dateTime(d.start)))}.`)
  }
  if (answer.capacity_kept.length > 0) {
    parts.push(`${answer.capacity_kept.length} future ${answer.capacity_kept.length === 1 ? 'departure keeps its' : 'departures keep their'} own capacity (set by hand, or more seats taken).`)
  }
  return parts.join(' ')
}

/** Edits one tour, or writes a new one: every field of the catalog file's tour. */
function TourEditor({ tour, onSaved }: { tour: OperatorTour | null, onSaved?: (tour: OperatorTour) => void }) {
  const { api, me, formats, announce } = useOffice()
  const router = useRouter()
  const money = useMemo(() => new Money(formats.locale, me.instance.currency), [formats.locale, me.instance.currency])
  const [original, setOriginal] = useState(tour)
  const [draft, setDraft] = useState<TourDraft>(() => (tour ? tourDraft(tour, money) : newTourDraft(formats.operatorDate(new Date().toISOString()))))
  const [idTouched, setIdTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  // What the last save did, shown until the draft it was about changes.
  const [saved, setSaved] = useState<{ text: string, draft: TourDraft } | null>(null)
  const [archiveError, setArchiveError] = useState<string | null>(null)
  const { form, summary, errors, clear, showProblems, showRefusal } = useFormErrors()
  // What the loaded tour gives when read back through the form: only what the manager changed differs from it.
  const baseline = useMemo(() => (original ? tourOf(tourDraft(original, money), money).tour : null), [original, money])

  // From the draft as it is now, not as this render saw it: two inputs within one frame
  // (autofill, a fast typist, a test) must both stick.
  const set = (change: Partial<TourDraft>) => setDraft((current) => ({ ...current, ...change }))

  async function save(event: Event): Promise<void> {
    event.preventDefault()
    clear()
    const { tour: edited, problems } = tourOf(draft, money)
    if (problems.length > 0) {
      showProblems(problems)
      return
    }
    setBusy(true)
    try {
      if (!original) {
        const answer = await api.post<TourAnswer>('/tours', newTourBody(edited))
        announce(`${answer.tour.title} added; guests can book it now.`)
        router.navigate(`catalog/tours/${encodeURIComponent(answer.tour.id)}`)
        return
      }
      const changed = changedFields(baseline!, edited)
      if (Object.keys(changed).length === 0) {
        setSaved({ text: 'Nothing to save: no field has changed.', draft })
        return
      }
      const answer = await api.patch<TourAnswer>(`/tours/${encodeURIComponent(original.id)}`, changed)
      const next = tourDraft(answer.tour, money)
      const text = savedText(answer, formats)
      setOriginal(answer.tour)
      onSaved?.(answer.tour)
      setDraft(next)
      setSaved({ text, draft: next })
      announce(text)
    } catch (err) {
      showRefusal(err)
    } finally {
      setBusy(false)
    }
  }

  async function setArchived(archived: boolean): Promise<void> {
    if (!original) return
    setBusy(true)
    setArchiveError(null)
    try {
      const answer = await api.post<TourAnswer>(`/tours/${encodeURIComponent(original.id)}/${archived ? 'archive' : 'unarchive'}`)
      setOriginal(answer.tour)
      announce(archived ? `${answer.tour.title} is archived: guests no longer see it; its bookings stand.` : `${answer.tour.title} is offered to guests again.`)
      requestAnimationFrame(() => document.getElementById(archived ? 'unarchive' : 'archive')?.focus())
    } catch (err) {
      setArchiveError(err instanceof Problem && err.code === 'catalog_invalid'
        ? 'This is the last tour guests can see, so it cannot be archived.'
        : err instanceof Error ? err.message : String(err))
      requestAnimationFrame(() => document.getElementById('archive-error')?.focus())
    } finally {
      setBusy(false)
    }
  }

  const setAddon = (index: number, change: Partial<AddonDraft>) => set({ addons: draft.addons.map((a, i) => (i === index ? { ...a, ...change } : a)) })
  const addAddon = () => {
    set({ addons: [...draft.addons, { ...addonDraft({ id: '', name: '', description: '', price: 0, per: 'booking', max_quantity: 1 }, money), price: '', key: rowKey() }] })
    requestAnimationFrame(() => document.querySelectorAll<HTMLElement>('.addon')[draft.addons.length]?.querySelector('input')?.focus())
  }
  const removeAddon = (index: number) => {
    set({ addons: draft.addons.filter((_, i) => i !== index) })
    requestAnimationFrame(() => document.getElementById('add-addon')?.focus())
  }

  return (
    <>
      {original && (
        <div class="tour-state">
          {original.archived
            ? <p><span class="badge" data-tone="warn">Archived</span> Guests do not see this tour; its bookings and departures stand.</p>
            : <p><span class="badge" data-tone="good">Offered</span> Guests can book this tour. <a href={`/book/${me.instance.prefix}/?tour=${encodeURIComponent(original.id)}`}>See it as guests do</a></p>}
          {original.archived
            ? <button type="button" id="unarchive" class="button quiet" disabled={busy} onClick={() => setArchived(false)}>Offer it again</button>
            : <button type="button" id="archive" class="button quiet" disabled={busy} onClick={() => setArchived(true)}>Archive</button>}
          {archiveError && <p class="message" data-tone="error" role="alert" id="archive-error" tabIndex={-1}>{archiveError}</p>}
        </div>
      )}
      <form ref={form} class="catalog-form" noValidate onSubmit={save} aria-label={original ? `Edit ${original.title}` : 'New tour'}>
        <FormFields prefix="tour" errors={errors}>
          <section class="card catalog-section" aria-labelledby="tour-text">
            <h2 id="tour-text">What guests read</h2>
            {original && <p class="hint"><Link to={`catalog/tours/${encodeURIComponent(original.id)}/translations`}>{STRINGS.tour.link}</Link>: {STRINGS.tour.linkHint}</p>}
            <TextField path="title" label="Title" value={draft.title}
              onInput={(value) => set({ title: value, ...(!original && !idTouched ? { id: slugOf(value) } : {}) })} />
            {!original && (
              <TextField path="id" label="Tour id" value={draft.id} onInput={(value) => { setIdTouched(true); set({ id: value }) }}
                hint="Lowercase letters, digits and hyphens; part of the tour's address, and it cannot change later" />
            )}
            <TextField path="summary" label="Summary" multiline rows={2} value={draft.summary} onInput={(value) => set({ summary: value })}
              hint="One or two sentences for the tour list (up to 500 characters)" />
            <TextField path="description" label="Description" multiline rows={6} value={draft.description} onInput={(value) => set({ description: value })} />
            <div class="field-pair">
              <TextField path="languages" label="Languages" value={draft.languages} onInput={(value) => set({ languages: value })} hint="Codes such as en, pt, es" />
              <TextField path="tags" label="Tags" value={draft.tags} onInput={(value) => set({ tags: value })} hint="Separated by commas" />
            </div>
            <TextField path="duration_minutes" label="Duration (minutes)" type="number" inputMode="numeric" value={draft.duration_minutes}
              onInput={(value) => set({ duration_minutes: value })} hint={Number(draft.duration_minutes) > 0 ? formats.duration(Number(draft.duration_minutes)) : undefined} />
          </section>

          <section class="card catalog-section" aria-labelledby="tour-booking">
            <h2 id="tour-booking">Price and seats</h2>
            {draft.units.length === 0
              ? <TextField path="price" label={`Price per person (${money.currency})`} prefix={money.symbol} inputMode="decimal" value={draft.price}
                  onInput={(value) => set({ price: value })} hint={money.parse(draft.price) !== null ? `Guests see ${formats.price(money.parse(draft.price)!)} per person` : undefined} />
              : <TextField path="price" label={`Price (${money.currency})`} prefix={money.symbol} inputMode="decimal" value={draft.units[0].price} readOnly onInput={() => {}}
                  hint={`The first price category's (${draft.units[0].name || 'category 1'}): change it under Price categories`} />}
            <div class="field-pair">
              <TextField path="party.min" label="Fewest people per booking" type="number" inputMode="numeric" value={draft.party.min}
                onInput={(value) => set({ party: { ...draft.party, min: value } })} />
              <TextField path="party.max" label="Most people per booking" type="number" inputMode="numeric" value={draft.party.max}
                onInput={(value) => set({ party: { ...draft.party, max: value } })} />
            </div>
            <div class="field-pair">
              <TextField path="capacity" label="Seats per departure" type="number" inputMode="numeric" value={draft.capacity} onInput={(value) => set({ capacity: value })}
                hint="Departures whose capacity was set by hand keep it" />
              <TextField path="cutoff_minutes" label="Booking closes (minutes before the start)" type="number" inputMode="numeric" value={draft.cutoff_minutes}
                onInput={(value) => set({ cutoff_minutes: value })} hint="0: open until the start; 1440: a day before" />
            </div>
            <Choices path="confirmation" legend="Confirmation" kind="radio" selected={[draft.confirmation]}
              options={[{ value: 'instant', label: 'Instant: checkout confirms the booking' }, { value: 'on_request', label: 'On request: you confirm or decline each booking' }]}
              onChange={([value]) => set({ confirmation: value as TourDraft['confirmation'] })} />
            <div class="field-pair">
              <TextField path="min_participants" label="Minimum to run (guests)" type="number" inputMode="numeric" value={draft.min_participants}
                onInput={(value) => set({ min_participants: value })} hint="Empty: the tour runs whoever books" />
              <TextField path="min_participants_deadline_hours" label="Minimum decided (hours before the start)" type="number" inputMode="numeric"
                value={draft.min_participants_deadline_hours} onInput={(value) => set({ min_participants_deadline_hours: value })} hint="Empty: 24 hours" />
            </div>
          </section>

          <UnitsEditor draft={draft} onChange={setDraft} money={money} />

          <section class="card catalog-section" aria-labelledby="tour-addons">
            <h2 id="tour-addons">Add-ons</h2>
            {draft.addons.length === 0 && <p class="hint">No add-ons: guests book the tour alone.</p>}
            <ol class="rows">
              {draft.addons.map((addon, i) => (
                <li class="row addon" key={addon.key}>
                  <h3>Add-on {i + 1}{addon.name && `: ${addon.name}`}</h3>
                  <div class="field-pair">
                    <TextField path={`addons.${i}.name`} label="Name" value={addon.name} onInput={(name) => setAddon(i, { name, ...(addon.id === '' || addon.id === slugOf(addon.name) ? { id: slugOf(name) } : {}) })} />
                    <TextField path={`addons.${i}.id`} label="Add-on id" value={addon.id} onInput={(id) => setAddon(i, { id })} />
                  </div>
                  <TextField path={`addons.${i}.description`} label="Description" multiline rows={2} value={addon.description} onInput={(description) => setAddon(i, { description })} />
                  <div class="field-pair">
                    <TextField path={`addons.${i}.price`} label={`Price (${money.currency})`} prefix={money.symbol} inputMode="decimal" value={addon.price} onInput={(price) => setAddon(i, { price })} />
                    <TextField path={`addons.${i}.max_quantity`} label="Most per booking" type="number" inputMode="numeric" value={addon.max_quantity} onInput={(max_quantity) => setAddon(i, { max_quantity })} />
                  </div>
                  <Choices path={`addons.${i}.per`} legend="Counted" kind="radio" selected={[addon.per]}
                    options={[{ value: 'booking', label: 'Per booking' }, { value: 'person', label: 'Per person who takes it' }]}
                    onChange={([per]) => setAddon(i, { per: per as AddonDraft['per'] })} />
                  <button type="button" class="button quiet" onClick={() => removeAddon(i)}>Remove add-on {i + 1}</button>
                </li>
              ))}
            </ol>
            <button type="button" class="button quiet" id="add-addon" onClick={addAddon}>Add an add-on</button>
          </section>

          <section class="card catalog-section" aria-labelledby="tour-schedule">
            <h2 id="tour-schedule">Schedule</h2>
            <p class="hint">Each rule gives a departure at each start time on the chosen weekdays between its dates, on the local clock in {formats.zoneName(me.instance.timezone)}.</p>
            <ScheduleEditor draft={draft} onChange={setDraft} />
          </section>

          <section class="card catalog-section" aria-labelledby="tour-meeting">
            <h2 id="tour-meeting">Meeting point</h2>
            <TextField path="meeting_point.name" label="Place" value={draft.meeting_point.name} onInput={(name) => set({ meeting_point: { ...draft.meeting_point, name } })} />
            <TextField path="meeting_point.address" label="Address" value={draft.meeting_point.address} onInput={(address) => set({ meeting_point: { ...draft.meeting_point, address } })} />
            <div class="field-pair">
              <TextField path="meeting_point.lat" label="Latitude" inputMode="decimal" value={draft.meeting_point.lat} onInput={(lat) => set({ meeting_point: { ...draft.meeting_point, lat } })} hint="Decimal degrees, e.g. 38.7114" />
              <TextField path="meeting_point.lng" label="Longitude" inputMode="decimal" value={draft.meeting_point.lng} onInput={(lng) => set({ meeting_point: { ...draft.meeting_point, lng } })} hint="West of Greenwich is negative, e.g. -9.1300" />
            </div>
          </section>
        </FormFields>
        <FormEnd errors={errors} summaryRef={summary} saved={saved} draft={draft}>
          <button type="submit" class="button" disabled={busy}>{busy ? 'Saving…' : original ? 'Save changes' : 'Add the tour'}</button>
          {original && <button type="button" class="button quiet" disabled={busy} onClick={() => { clear(); setDraft(tourDraft(original, money)) }}>Undo my changes</button>}
          {!original && <Link to="catalog" class="button quiet">Cancel</Link>}
        </FormEnd>
      </form>
    </>
  )
}
