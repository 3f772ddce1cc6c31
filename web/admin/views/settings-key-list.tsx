import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { useOffice } from '../session.tsx'
import { Confirmed, refusalText, ShownOnce, when } from './settings-parts.tsx'

// What the API keys page (settings-api-keys.tsx) and the reseller keys page
// (settings-reseller-keys.tsx) share: both list keys of GET /api-keys, revoke them with
// DELETE /api-keys/{id}, and show a new key's secret once.

/** The part of a key of GET /api-keys that both pages show. */
export interface ListedKey {
  id: string
  name: string
  prefix: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** A new key's secret, shown once; closing it puts focus on the key's card in the list. */
export function KeySecret({ id, made, title, warning, onClose }: {
  id: string, made: { key: ListedKey, secret: string }, title: string, warning: ComponentChildren, onClose: () => void
}) {
  return (
    <ShownOnce id={id} value={made.secret} label="Secret key" title={title} warning={warning}
      onDone={() => {
        const keyId = made.key.id
        onClose()
        requestAnimationFrame(() => document.getElementById(`key-${keyId}`)?.focus())
      }} />
  )
}

/**
 * The keys in use, each with a Revoke… that asks first, and the revoked ones folded away.
 * `noun` names a key in the page's words ("key", "reseller key"); `onRevoked` reloads the list.
 */
export function KeyList<K extends ListedKey>({ keys, noun, revokeQuestion, inUse, revokedLine, onRevoked }: {
  keys: K[]
  noun: string
  /** What revoking the key does, after "Revoke “name”?". */
  revokeQuestion: string
  /** The lines under a key in use's name. */
  inUse: (key: K) => ComponentChildren
  /** The line under a revoked key's name, before "revoked <when>". */
  revokedLine: (key: K) => string
  onRevoked: () => Promise<void>
}) {
  const { api, formats, announce } = useOffice()
  const [busy, setBusy] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string, text: string } | null>(null)
  const Noun = noun[0].toUpperCase() + noun.slice(1)

  async function revoke(key: K): Promise<void> {
    setBusy(key.id)
    setFailure(null)
    try {
      await api.delete(`/api-keys/${encodeURIComponent(key.id)}`)
      await onRevoked()
      announce(`${Noun} “${key.name}” revoked: it no longer works.`)
    } catch (err) {
      setFailure({ id: key.id, text: refusalText(err) })
    } finally {
      setBusy(null)
    }
  }

  const live = keys.filter((k) => k.revoked_at === null)
  const revoked = keys.filter((k) => k.revoked_at !== null)
  return (
    <>
      {live.length === 0 ? <p>No {noun}s in use.</p> : (
        <ul class="cards" aria-label={`${Noun}s in use`}>
          {live.map((key) => (
            <li class="card api-key" key={key.id}>
              <h2 id={`key-${key.id}`} tabIndex={-1}>{key.name} <span class="code">{key.prefix}…</span></h2>
              {inUse(key)}
              <div class="actions">
                <Confirmed id={`revoke-${key.id}`} label="Revoke…" accessibleLabel={`Revoke ${noun} ${key.name}`} busy={busy === key.id}
                  question={<>Revoke “{key.name}”? {revokeQuestion}</>}
                  yes="Revoke key" onYes={() => revoke(key)} />
              </div>
              {failure?.id === key.id && <p class="message" data-tone="error" role="alert">{failure.text}</p>}
            </li>
          ))}
        </ul>
      )}
      {revoked.length > 0 && (
        <details class="revoked">
          <summary>Revoked {noun}s ({revoked.length})</summary>
          <ul class="cards" aria-label={`Revoked ${noun}s`}>
            {revoked.map((key) => (
              <li class="card api-key" key={key.id}>
                <h3 id={`key-${key.id}`} tabIndex={-1}>{key.name} <span class="code">{key.prefix}…</span></h3>
                <p>{revokedLine(key)} · revoked {when(formats, key.revoked_at!)}</p>
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  )
}
