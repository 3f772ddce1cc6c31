import { useRef, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import {
  Confirmed, described, FieldError, refusalText, RoleField, roleName, SettingsHeading, ShownOnce, useMakeForm, when, type RoleName,
} from './settings-parts.tsx'

interface ApiKey {
  id: string
  name: string
  role: RoleName
  prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** API keys for integrations: made with a name and a role, the secret shown once; revoked at once. */
export function ApiKeysSettings() {
  const { api, formats, announce } = useOffice()
  // Reseller keys have a page of their own (settings-reseller-keys.tsx).
  const [state, reload] = useLoad(() => api.get<{ api_keys: Array<ApiKey | { role: 'reseller' }> }>('/api-keys?limit=200')
    .then((b) => b.api_keys.filter((k): k is ApiKey => k.role !== 'reseller')), [])
  const [made, setMade] = useState<{ key: ApiKey, secret: string } | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string, text: string } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  async function revoke(key: ApiKey): Promise<void> {
    setBusy(key.id)
    setFailure(null)
    try {
      await api.delete(`/api-keys/${encodeURIComponent(key.id)}`)
      await reload()
      announce(`Key “${key.name}” revoked: it no longer works.`)
      heading.current?.focus()
    } catch (err) {
      setFailure({ id: key.id, text: refusalText(err) })
    } finally {
      setBusy(null)
    }
  }

  const live = state.kind === 'ready' ? state.data.filter((k) => k.revoked_at === null) : []
  const revoked = state.kind === 'ready' ? state.data.filter((k) => k.revoked_at !== null) : []
  return (
    <>
      <SettingsHeading headingRef={heading}>API keys</SettingsHeading>
      <p class="hint">An integration sends its key as <span class="code">Authorization: Bearer …</span> to the operator API. A key has one role, like a person.</p>
      {made && (
        <ShownOnce id="key-secret" value={made.secret} label="Secret key" title={`Key “${made.key.name}” made`}
          warning="Copy it into the integration now. Only its first characters are kept here; if it is lost, revoke the key and make a new one."
          onDone={() => {
            const id = made.key.id
            setMade(null)
            requestAnimationFrame(() => document.getElementById(`key-${id}`)?.focus())
          }} />
      )}
      <LoadState state={state} what="the API keys" retry={reload} />
      {state.kind === 'ready' && (
        <>
          {live.length === 0 ? <p>No keys in use.</p> : (
            <ul class="cards" aria-label="Keys in use">
              {live.map((key) => (
                <li class="card api-key" key={key.id}>
                  <h2 id={`key-${key.id}`} tabIndex={-1}>{key.name} <span class="code">{key.prefix}…</span></h2>
                  <p>{roleName(key.role)} · made {when(formats, key.created_at)} · {key.last_used_at ? `last used ${when(formats, key.last_used_at)}` : 'never used'}</p>
                  <div class="actions">
                    <Confirmed id={`revoke-${key.id}`} label="Revoke…" accessibleLabel={`Revoke key ${key.name}`} busy={busy === key.id}
                      question={<>Revoke “{key.name}”? Its next request is refused; an integration that uses it stops working at once.</>}
                      yes="Revoke key" onYes={() => revoke(key)} />
                  </div>
                  {failure?.id === key.id && <p class="message" data-tone="error" role="alert">{failure.text}</p>}
                </li>
              ))}
            </ul>
          )}
          {revoked.length > 0 && (
            <details class="revoked">
              <summary>Revoked keys ({revoked.length})</summary>
              <ul class="cards" aria-label="Revoked keys">
                {revoked.map((key) => (
                  <li class="card api-key" key={key.id}>
                    <h3 id={`key-${key.id}`} tabIndex={-1}>{key.name} <span class="code">{key.prefix}…</span></h3>
                    <p>{roleName(key.role)} · revoked {when(formats, key.revoked_at!)}</p>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
      <NewKeyForm onMade={async (answer) => {
        await reload()
        setMade(answer)
      }} />
    </>
  )
}

function NewKeyForm({ onMade }: { onMade: (answer: { key: ApiKey, secret: string }) => Promise<void> }) {
  const { api } = useOffice()
  const [name, setName] = useState('')
  const [role, setRole] = useState<RoleName>('viewer')
  const { form, errors, failure, busy, send } = useMakeForm(['name', 'role'], (field, message) => `${field === 'name' ? 'The name' : field} ${message}.`)

  async function make(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const missing: Record<string, string> = name.trim() === '' ? { name: 'Give the key a name, such as the integration that will use it.' } : {}
    await send(missing, async () => {
      const answer = await api.post<{ api_key: ApiKey, secret: string }>('/api-keys', { name: name.trim(), role })
      setName('')
      await onMade({ key: answer.api_key, secret: answer.secret })
    })
  }

  return (
    <form class="settings-form card" ref={form} noValidate onSubmit={make} aria-labelledby="new-key-title">
      <h2 id="new-key-title">Make a key</h2>
      <label for="key-name">Name</label>
      <p class="field-hint" id="key-name-hint">What uses it, e.g. “Accounting export”.</p>
      <input id="key-name" type="text" maxLength={200} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)}
        {...described('key-name', errors, 'name', true)} />
      <FieldError id="key-name" errors={errors} field="name" />
      <RoleField id="key-role" value={role} onChange={setRole} errors={errors} />
      {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
      <button type="submit" class="button" disabled={busy}>{busy ? 'Making…' : 'Make key'}</button>
    </form>
  )
}
