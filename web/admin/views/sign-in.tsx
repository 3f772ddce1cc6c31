import { useState } from 'preact/hooks'
import { useFormViewFocus } from '../form-focus.ts'
import { Problem, type AdminApi } from '../api.ts'

/** The sentence for a refused sign-in: wrong details, a locked email (429 with Retry-After), or anything else. */
export function signInRefusal(err: unknown): string {
  if (!(err instanceof Problem)) return String(err)
  if (err.code === 'invalid_credentials') return 'That email and password do not match an active account here. Check both and try again.'
  if (err.code === 'rate_limited') {
    const minutes = Math.max(1, Math.ceil((err.retryAfterSeconds ?? 900) / 60))
    const at = new Intl.DateTimeFormat(navigator.language || 'en', { hour: 'numeric', minute: '2-digit' }).format(Date.now() + minutes * 60_000)
    return `Too many failed sign-ins: this account is locked for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, even with the right password. Try again after ${at}.`
  }
  return err.message
}

export function SignInView({ api, operatorName, notice, onSignedIn }: { api: AdminApi, operatorName: string, notice: string | null, onSignedIn: () => Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { heading, errorLine } = useFormViewFocus(error)

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError(null)
    try {
      await api.signIn(String(form.get('email')), String(form.get('password')))
      await onSignedIn()
    } catch (err) {
      setError(signInRefusal(err))
      setBusy(false)
    }
  }

  return (
    <main id="main" class="narrow">
      <h1 ref={heading} tabIndex={-1}>Sign in to {operatorName}</h1>
      {notice && <p class="message" data-tone="info" id="sign-in-notice">{notice}</p>}
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        {error && <p class="message" data-tone="error" id="sign-in-error" role="alert" tabIndex={-1} ref={errorLine}>{error}</p>}
        <button type="submit" class="button" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  )
}
