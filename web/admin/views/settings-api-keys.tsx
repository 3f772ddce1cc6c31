import { useRef, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { KeyList, KeySecret, type ListedKey } from './settings-key-list.tsx'
import { described, FieldError, RoleField, roleName, SettingsHeading, useMakeForm, when, type RoleName } from './settings-parts.tsx'

interface ApiKey extends ListedKey {
  role: RoleName
}

/** API keys for integrations: made with a name and a role, the secret shown once; revoked at once. */
export function ApiKeysSettings() {
  const { api, formats } = useOffice()
  // Reseller keys have a page of their own (settings-reseller-keys.tsx).
  const [state, reload] = useLoad(() => api.get<{ api_keys: Array<ApiKey | { role: 'reseller' }> }>('/api-keys?limit=200')
    .then((b) => b.api_keys.filter((k): k is ApiKey => k.role !== 'reseller')), [])
  const [made, setMade] = useState<{ key: ApiKey, secret: string } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  return (
    <>
      <SettingsHeading headingRef={heading}>API keys</SettingsHeading>
      <p class="hint">An integration sends its key as <span class="code">Authorization: Bearer …</span> to the operator API. A key has one role, like a person.</p>
      {made && (
        <KeySecret id="key-secret" made={made} title={`Key “${made.key.name}” made`}
          warning="Copy it into the integration now. Only its first characters are kept here; if it is lost, revoke the key and make a new one."
          onClose={() => setMade(null)} />
      )}
      <LoadState state={state} what="the API keys" retry={reload} />
      {state.kind === 'ready' && (
        <KeyList keys={state.data} noun="key"
          revokeQuestion="Its next request is refused; an integration that uses it stops working at once."
          inUse={(key) => <p>{roleName(key.role)} · made {when(formats, key.created_at)} · {key.last_used_at ? `last used ${when(formats, key.last_used_at)}` : 'never used'}</p>}
          revokedLine={(key) => roleName(key.role)}
          onRevoked={async () => {
            await reload()
            heading.current?.focus()
          }} />
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
