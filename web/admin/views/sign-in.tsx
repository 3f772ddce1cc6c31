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

/** The sentence for a refused "forgot your password?": no email on this service, too many requests, or anything else. */
function resetRefusal(err: unknown): string {
  if (err instanceof Problem && err.code === 'email_not_set_up') {
    return 'This service sends no email, so no link can be emailed to you. Ask a manager for a new setup link: they make one under Settings, Staff accounts.'
  }
  if (err instanceof Problem && err.code === 'rate_limited') {
    const minutes = Math.max(1, Math.ceil((err.retryAfterSeconds ?? 900) / 60))
    return `Too many links were asked for this address. Use the newest one you received, or ask again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`
  }
  return err instanceof Problem ? err.message : String(err)
}

/** "Forgot your password?": asks for a link by email; the answer never says whether the address has an account. */
function ForgotPassword({ api, given, onBack }: { api: AdminApi, given: string, onBack: () => void }) {
  const [email, setEmail] = useState(given)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { heading, errorLine } = useFormViewFocus(error)

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setSent(null)
    try {
      setSent((await api.post<{ detail: string }>('/password-reset', { email: email.trim() })).detail)
    } catch (err) {
      setError(resetRefusal(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main id="main" class="narrow">
      <h1 ref={heading} tabIndex={-1}>Choose a new password</h1>
      <form onSubmit={submit} aria-describedby={error ? 'reset-error' : undefined}>
        <p id="reset-hint">Give the email address you sign in with. If it has an account here, a link to choose a new password is emailed to it; it works once, within an hour.</p>
        <label for="reset-email">Email</label>
        <input id="reset-email" name="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} aria-describedby="reset-hint" />
        {error && <p class="message" data-tone="error" id="reset-error" role="alert" tabIndex={-1} ref={errorLine}>{error}</p>}
        {sent && <p class="message" data-tone="info" id="reset-sent" role="status">{sent}</p>}
        <button type="submit" class="button" disabled={busy}>{busy ? 'Sending…' : 'Email me a link'}</button>
      </form>
      <p><button type="button" class="button quiet" onClick={onBack}>Back to sign in</button></p>
    </main>
  )
}

export function SignInView({ api, operatorName, notice, onSignedIn }: { api: AdminApi, operatorName: string, notice: string | null, onSignedIn: () => Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [forgot, setForgot] = useState<string | null>(null)
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

  if (forgot !== null) return <ForgotPassword api={api} given={forgot} onBack={() => setForgot(null)} />
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
      <p><button type="button" class="button quiet" onClick={() => setForgot((document.getElementById('email') as HTMLInputElement | null)?.value ?? '')}>Forgot your password?</button></p>
    </main>
  )
}
