import { useState } from 'preact/hooks'
import { useFormViewFocus } from '../form-focus.ts'
import { Problem, type AdminApi } from '../api.ts'
import { signInRefusal } from './sign-in.tsx'

const MIN_PASSWORD = 12

/**
 * The setup link `<origin>/admin/<prefix>/setup#<token>`: the token sits in the fragment, so
 * it never reaches a server log or a Referer. Setting the password spends it; then the new
 * account is signed in.
 */
export function SetupView({ api, operatorName, onSignedIn }: { api: AdminApi, operatorName: string, onSignedIn: () => Promise<void> }) {
  const [token] = useState(() => location.hash.slice(1))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { heading, errorLine } = useFormViewFocus(error)

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const password = String(form.get('password'))
    if (password.length < MIN_PASSWORD) return setError(`The password needs at least ${MIN_PASSWORD} characters.`)
    if (password !== String(form.get('repeat'))) return setError('The two passwords differ. Type the same one twice.')
    setBusy(true)
    setError(null)
    try {
      const account = await api.post<{ email: string }>('/setup', { token, password })
      await api.signIn(account.email, password)
      await onSignedIn()
    } catch (err) {
      setError(err instanceof Problem && err.code === 'invalid_setup_token'
        ? 'This link has been used already or has expired (a setup link works for 24 hours, an emailed one for an hour). Ask for a new one.'
        : signInRefusal(err))
      setBusy(false)
    }
  }

  return (
    <main id="main" class="narrow">
      <h1 ref={heading} tabIndex={-1}>Set your password for {operatorName}</h1>
      {token === ''
        ? <p class="message" data-tone="error">This setup link is incomplete: it should end with # and a long code. Open the whole link from the message you were sent.</p>
        : (
          <form onSubmit={submit}>
            <p id="password-rule">At least {MIN_PASSWORD} characters. A few unrelated words make a good one.</p>
            <label for="password">New password</label>
            <input id="password" name="password" type="password" autocomplete="new-password" aria-describedby="password-rule" required />
            <label for="repeat">The same password again</label>
            <input id="repeat" name="repeat" type="password" autocomplete="new-password" required />
            {error && <p class="message" data-tone="error" id="setup-error" role="alert" tabIndex={-1} ref={errorLine}>{error}</p>}
            <button type="submit" class="button" disabled={busy}>{busy ? 'Saving…' : 'Set password and sign in'}</button>
          </form>
        )}
    </main>
  )
}
