import { useRef, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { allTours, type OperatorTour } from './catalog-model.ts'
import { KeyList, KeySecret, type ListedKey } from './settings-key-list.tsx'
import { described, FieldError, SettingsHeading, useMakeForm, when } from './settings-parts.tsx'

/** A reseller key as GET /api-keys gives it (role reseller). */
interface ResellerKey extends ListedKey {
  role: string
  products: string[] | null
  commission_percent: number | null
}

/** Reseller keys (docs/resellers.md): made with a name, the tours they sell and a commission, the secret shown once; revoked at once. */
export function ResellerKeysSettings() {
  const { api, formats, me } = useOffice()
  const [state, reload] = useLoad(() => Promise.all([
    api.get<{ api_keys: ResellerKey[] }>('/api-keys?limit=200').then((b) => b.api_keys.filter((k) => k.role === 'reseller')),
    allTours(api),
  ]), [])
  const [made, setMade] = useState<{ key: ResellerKey, secret: string } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  const [keys, tours] = state.kind === 'ready' ? state.data : [[], []]
  const titleOf = (id: string) => tours.find((t) => t.id === id)?.title ?? id
  const sells = (key: ResellerKey) => key.products === null ? 'every tour' : key.products.map(titleOf).join(', ')
  return (
    <>
      <SettingsHeading headingRef={heading}>Reseller keys</SettingsHeading>
      <p class="hint">
        A reseller (an online travel agency, a channel manager) books through the OCTo API at <span class="code">{location.origin}/octo/{me.instance.prefix}</span> with
        its own key, for the tours it sells, at its commission. Its bookings show its name and the net it owes you; its guests pay it, not you.
      </p>
      {made && (
        <KeySecret id="reseller-key-secret" made={made} title={`Reseller key “${made.key.name}” made`}
          warning="Give it to the reseller's developer now, with the OCTo address above. Only its first characters are kept here; if it is lost, revoke the key and make a new one."
          onClose={() => setMade(null)} />
      )}
      <LoadState state={state} what="the reseller keys" retry={reload} />
      {state.kind === 'ready' && (
        <>
          <KeyList keys={keys} noun="reseller key"
            revokeQuestion="Its next request is refused: the reseller can no longer book. Its bookings stay."
            inUse={(key) => (
              <>
                <p>{key.commission_percent ?? 0}% commission · sells {sells(key)}</p>
                <p>made {when(formats, key.created_at)} · {key.last_used_at ? `last used ${when(formats, key.last_used_at)}` : 'never used'}</p>
              </>
            )}
            revokedLine={(key) => `${key.commission_percent ?? 0}% commission`}
            onRevoked={async () => {
              await reload()
              heading.current?.focus()
            }} />
          <NewResellerKeyForm tours={tours.filter((t) => !t.archived)} onMade={async (answer) => {
            await reload()
            setMade(answer)
          }} />
        </>
      )}
    </>
  )
}

function NewResellerKeyForm({ tours, onMade }: { tours: OperatorTour[], onMade: (answer: { key: ResellerKey, secret: string }) => Promise<void> }) {
  const { api } = useOffice()
  const [name, setName] = useState('')
  const [commission, setCommission] = useState('0')
  const [everyTour, setEveryTour] = useState(true)
  const [chosen, setChosen] = useState<string[]>([])
  const { form, errors, failure, busy, send } = useMakeForm(['name', 'commission_percent', 'products'], (field, message) =>
    field === 'name' ? `The name ${message}.` : field === 'commission_percent' ? `The commission ${message}.` : `A tour ${message}.`)

  async function make(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const percent = Number(commission)
    const missing: Record<string, string> = {}
    if (name.trim() === '') missing.name = 'Give the key the reseller’s name.'
    if (commission.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100) missing.commission_percent = 'The commission is a percentage from 0 to 100.'
    if (!everyTour && chosen.length === 0) missing.products = 'Choose at least one tour, or every tour.'
    await send(missing, async () => {
      const body = { name: name.trim(), role: 'reseller', commission_percent: percent, ...(everyTour ? {} : { products: chosen }) }
      const answer = await api.post<{ api_key: ResellerKey, secret: string }>('/api-keys', body)
      setName('')
      setCommission('0')
      setEveryTour(true)
      setChosen([])
      await onMade({ key: answer.api_key, secret: answer.secret })
    })
  }

  return (
    <form class="settings-form card" ref={form} noValidate onSubmit={make} aria-labelledby="new-reseller-key-title">
      <h2 id="new-reseller-key-title">Make a reseller key</h2>
      <label for="reseller-name">Reseller</label>
      <p class="field-hint" id="reseller-name-hint">Its name as your bookings and invoices should show it, e.g. “Lisbon OTA”.</p>
      <input id="reseller-name" type="text" maxLength={200} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)}
        {...described('reseller-name', errors, 'name', true)} />
      <FieldError id="reseller-name" errors={errors} field="name" />
      <label for="reseller-commission">Commission, in percent</label>
      <p class="field-hint" id="reseller-commission-hint">What the reseller keeps of each sale; it owes you the rest (the net).</p>
      <input id="reseller-commission" type="number" inputMode="decimal" min={0} max={100} step={0.01} value={commission}
        onInput={(e) => setCommission(e.currentTarget.value)} {...described('reseller-commission', errors, 'commission_percent', true)} />
      <FieldError id="reseller-commission" errors={errors} field="commission_percent" />
      <fieldset class="event-choices" aria-describedby={errors.products ? 'reseller-products-error' : undefined}>
        <legend>Tours it sells</legend>
        <div class="event-choice">
          <input type="radio" id="reseller-every-tour" name="reseller-tours" checked={everyTour} onChange={() => setEveryTour(true)} />
          <label for="reseller-every-tour">Every tour, new ones too</label>
        </div>
        <div class="event-choice">
          <input type="radio" id="reseller-chosen-tours" name="reseller-tours" checked={!everyTour} onChange={() => setEveryTour(false)} />
          <label for="reseller-chosen-tours">Only the tours chosen here</label>
        </div>
        {!everyTour && tours.map((tour) => (
          <div class="event-choice" key={tour.id}>
            <input type="checkbox" id={`reseller-tour-${tour.id}`} checked={chosen.includes(tour.id)}
              onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, tour.id] : chosen.filter((id) => id !== tour.id))} />
            <label for={`reseller-tour-${tour.id}`}>{tour.title}</label>
          </div>
        ))}
      </fieldset>
      <FieldError id="reseller-products" errors={errors} field="products" />
      {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
      <button type="submit" class="button" disabled={busy}>{busy ? 'Making…' : 'Make reseller key'}</button>
    </form>
  )
}
