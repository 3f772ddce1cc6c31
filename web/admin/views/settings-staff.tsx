import { useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import {
  Confirmed, described, FieldError, refusalText, RoleField, ROLES, roleName, SettingsHeading, ShownOnce, useMakeForm, when, type RoleName,
} from './settings-parts.tsx'

interface StaffAccount {
  id: string
  email: string
  name: string
  role: RoleName
  disabled: boolean
  set_up: boolean
  created_at: string
}

/**
 * Staff accounts: add one (its setup link shown once), give one a new setup link (a forgotten
 * password), change a role, disable and enable. Accounts are kept for the audit log.
 */
export function StaffSettings() {
  const { api, me, formats, announce } = useOffice()
  const [state, reload] = useLoad(() => api.get<{ staff: StaffAccount[] }>('/staff?limit=200').then((b) => b.staff), [])
  const [added, setAdded] = useState<{ staff: StaffAccount, link: string, kind: 'added' | 'reset' } | null>(null)
  const [roles, setRoles] = useState<Record<string, RoleName>>({})
  const [busy, setBusy] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string, text: string } | null>(null)

  async function act(account: StaffAccount, run: () => Promise<string>, focusId: string): Promise<void> {
    setBusy(account.id)
    setFailure(null)
    try {
      const done = await run()
      await reload()
      announce(done)
      requestAnimationFrame(() => document.getElementById(focusId)?.focus())
    } catch (err) {
      // The last manager's refusal (409 last_manager) says why in its detail.
      setFailure({ id: account.id, text: refusalText(err) })
      await reload()
    } finally {
      setBusy(null)
    }
  }

  const changeRole = (a: StaffAccount) => act(a, async () => {
    const role = roles[a.id] ?? a.role
    await api.patch(`/staff/${encodeURIComponent(a.id)}`, { role })
    setRoles(({ [a.id]: _chosen, ...others }) => others)
    return `${a.name} is now ${roleName(role).toLowerCase()}.`
  }, `role-${a.id}`)
  const disable = (a: StaffAccount) => act(a, async () => {
    await api.delete(`/staff/${encodeURIComponent(a.id)}`)
    return `${a.name} is disabled and signed out.`
  }, `enable-${a.id}`)
  const newLink = (a: StaffAccount) => act(a, async () => {
    const answer = await api.post<{ staff: StaffAccount, setup_link: string }>(`/staff/${encodeURIComponent(a.id)}/setup-link`)
    setAdded({ staff: answer.staff, link: answer.setup_link, kind: 'reset' })
    return `A new setup link for ${a.name} is shown above.`
  }, 'setup-link-title')
  const enable = (a: StaffAccount) => act(a, async () => {
    await api.patch(`/staff/${encodeURIComponent(a.id)}`, { disabled: false })
    return `${a.name} can sign in again.`
  }, `disable-${a.id}`)

  return (
    <>
      <SettingsHeading>Staff accounts</SettingsHeading>
      <p class="hint">Who can sign in to this back office. Accounts are never deleted, since the audit log names them: disable one to take its access away.</p>
      {added && (
        <ShownOnce id="setup-link" value={added.link} label="Setup link" title={added.kind === 'added' ? `${added.staff.name} added` : `New setup link for ${added.staff.name}`}
          warning={added.kind === 'added'
            ? <>Send it to {added.staff.email} yourself: it works once, for 24 hours, and lets them choose a password. If it is lost, give them a new setup link from their card.</>
            : <>Send it to {added.staff.email} yourself: it works once, for 24 hours, and lets them choose a new password. Links given before no longer work; their present password works until they use this one.</>}
          onDone={() => {
            const id = added.staff.id
            setAdded(null)
            requestAnimationFrame(() => document.getElementById(`staff-${id}`)?.focus())
          }} />
      )}
      <LoadState state={state} what="the staff accounts" retry={reload} />
      {state.kind === 'ready' && (state.data.length === 0 ? <p>No staff accounts.</p> : (
        <ul class="cards" aria-label="Staff accounts">
          {state.data.map((a) => {
            const chosen = roles[a.id] ?? a.role
            const you = me.kind === 'staff' && me.id === a.id
            return (
              <li class="card staff-account" key={a.id} data-disabled={a.disabled || undefined}>
                <h2 id={`staff-${a.id}`} tabIndex={-1}>{a.name}{you && <span class="muted"> (you)</span>}</h2>
                <p class="wrap"><a href={`mailto:${a.email}`}>{a.email}</a></p>
                <ul class="badges">
                  <li class="badge">{roleName(a.role)}</li>
                  {a.disabled && <li class="badge" data-tone="danger">Disabled</li>}
                  {!a.disabled && !a.set_up && <li class="badge" data-tone="warn">Setup link not used yet</li>}
                </ul>
                <p class="muted">Added {when(formats, a.created_at)}</p>
                {!a.disabled && (
                  <form class="inline-field role-form" onSubmit={(e) => { e.preventDefault(); void changeRole(a) }}>
                    <label for={`role-${a.id}`} class="visually-hidden">Role of {a.name}</label>
                    <select id={`role-${a.id}`} value={chosen} onChange={(e) => { const role = e.currentTarget.value as RoleName; setRoles((current) => ({ ...current, [a.id]: role })) }}>
                      {ROLES.map((r) => <option value={r.role} key={r.role}>{r.name}</option>)}
                    </select>
                    <button type="submit" class="button quiet" disabled={busy === a.id || chosen === a.role} aria-label={`Change role of ${a.name}`}>Change role</button>
                  </form>
                )}
                <div class="actions">
                  {!a.disabled && (
                    <Confirmed id={`new-link-${a.id}`} label="New setup link…" accessibleLabel={`New setup link for ${a.name}`} busy={busy === a.id} tone="plain"
                      question={<>Give {a.name} a new setup link, to choose a new password? Links given before stop working; {you ? 'your' : 'their'} present password works until the new link is used.</>}
                      yes="Make the link" onYes={() => newLink(a)} />
                  )}
                  {a.disabled
                    ? <button type="button" class="button quiet" id={`enable-${a.id}`} disabled={busy === a.id} aria-label={`Enable ${a.name}`} onClick={() => enable(a)}>Enable</button>
                    : <Confirmed id={`disable-${a.id}`} label="Disable…" accessibleLabel={`Disable ${a.name}`} busy={busy === a.id}
                        question={<>Disable {a.name}? {you ? 'You are' : 'They are'} signed out at once and can no longer sign in. The account stays, disabled, for the audit log, and can be enabled again.</>}
                        yes="Disable account" onYes={() => disable(a)} />}
                </div>
                {failure?.id === a.id && <p class="message" data-tone="error" role="alert">{failure.text}</p>}
              </li>
            )
          })}
        </ul>
      ))}
      <NewStaffForm onAdded={async (answer) => {
        await reload()
        setAdded({ ...answer, kind: 'added' })
      }} />
    </>
  )
}

function NewStaffForm({ onAdded }: { onAdded: (answer: { staff: StaffAccount, link: string }) => Promise<void> }) {
  const { api } = useOffice()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [role, setRole] = useState<RoleName>('staff')
  const { form, errors, failure, busy, send } = useMakeForm(['email', 'name', 'role'],
    (field, message) => `${field === 'email' ? 'The email address' : field === 'name' ? 'The name' : field} ${message}.`)

  async function add(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const missing: Record<string, string> = {}
    if (email.trim() === '') missing.email = 'Give their email address.'
    if (name.trim() === '') missing.name = 'Give their name.'
    await send(missing, async () => {
      const answer = await api.post<{ staff: StaffAccount, setup_link: string }>('/staff', { email: email.trim(), name: name.trim(), role })
      setEmail('')
      setName('')
      await onAdded({ staff: answer.staff, link: answer.setup_link })
    })
  }

  return (
    <form class="settings-form card" ref={form} noValidate onSubmit={add} aria-labelledby="new-staff-title">
      <h2 id="new-staff-title">Add someone</h2>
      <p class="field-hint">You get a setup link to send them; with it they choose their own password.</p>
      <label for="staff-email">Email</label>
      <input id="staff-email" type="email" autocomplete="off" spellcheck={false} value={email} onInput={(e) => setEmail(e.currentTarget.value)}
        {...described('staff-email', errors, 'email')} />
      <FieldError id="staff-email" errors={errors} field="email" />
      <label for="staff-name">Name</label>
      <input id="staff-name" type="text" maxLength={200} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)}
        {...described('staff-name', errors, 'name')} />
      <FieldError id="staff-name" errors={errors} field="name" />
      <RoleField id="staff-role" value={role} onChange={setRole} errors={errors} />
      {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
      <button type="submit" class="button" disabled={busy}>{busy ? 'Adding…' : 'Add and get setup link'}</button>
    </form>
  )
}
