import type { JSX } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Permission } from '../../src/domain/roles.ts'
import { Problem, type AdminApi, type Me } from './api.ts'
import { Link, useRouter } from './router.tsx'
import { formatsFor, OfficeContext, type Office } from './session.tsx'
import { SetupView } from './views/setup.tsx'
import { SignInView } from './views/sign-in.tsx'
import { TodayView } from './views/today.tsx'
import { ManifestView } from './views/manifest.tsx'
import { RequestsView } from './views/requests.tsx'
import { NoAccessView, NotFoundView } from './views/not-found.tsx'
import { BookingsView } from './views/bookings.tsx'
import { CalendarView } from './views/calendar.tsx'
import { CatalogView } from './views/catalog.tsx'
import { SettingsView } from './views/settings.tsx'

export const SESSION_ENDED = 'Your session has ended (signed out elsewhere, or unused for too long). Sign in again to carry on where you were.'

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out', notice: string | null }
  | { kind: 'signed-in', me: Me }
  | { kind: 'failed', message: string }

export function App({ api, operatorName }: { api: AdminApi, operatorName: string }) {
  const router = useRouter()
  const [state, setState] = useState<State>({ kind: 'loading' })

  async function loadMe(): Promise<void> {
    try {
      setState({ kind: 'signed-in', me: await api.get<Me>('/me') })
    } catch (err) {
      if (err instanceof Problem && err.status === 401) {
        const hadSession = api.hasSession
        api.sessionEnded()
        setState({ kind: 'signed-out', notice: hadSession ? SESSION_ENDED : null })
      } else {
        setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) })
      }
    }
  }

  useEffect(() => {
    api.onSessionEnded = () => setState({ kind: 'signed-out', notice: SESSION_ENDED })
    if (router.path === 'setup') return
    // Without a session token in this browser nobody is signed in here: no need to ask (and log a 401).
    if (api.hasSession) void loadMe()
    else setState({ kind: 'signed-out', notice: null })
  }, [])

  if (router.path === 'setup') {
    return <SetupView api={api} operatorName={operatorName} onSignedIn={async () => {
      router.navigate('', { replace: true })
      await loadMe()
    }} />
  }
  if (state.kind === 'loading') return <main class="boot"><h1>{operatorName} back office</h1><p role="status">Loading…</p></main>
  if (state.kind === 'failed') {
    return (
      <main class="boot">
        <h1>{operatorName} back office</h1>
        <p role="alert" class="message" data-tone="error">The back office could not load: {state.message}</p>
        <button type="button" class="button" onClick={() => { setState({ kind: 'loading' }); void loadMe() }}>Try again</button>
      </main>
    )
  }
  if (state.kind === 'signed-out') return <SignInView api={api} operatorName={operatorName} notice={state.notice} onSignedIn={loadMe} />
  return <SignedIn api={api} me={state.me} operatorName={operatorName} onSignedOut={() => setState({ kind: 'signed-out', notice: 'You are signed out.' })} />
}

function SignedIn({ api, me, operatorName, onSignedOut }: { api: AdminApi, me: Me, operatorName: string, onSignedOut: () => void }) {
  const router = useRouter()
  const [titles, setTitles] = useState<Map<string, string>>(new Map())
  const [status, setStatus] = useState('')
  const main = useRef<HTMLElement>(null)
  const first = useRef(true)

  // Tour names for departures: the instance's public tour list (departures name only the tour id),
  // in the instance's default language like every catalog text of the back office ("*" reads
  // the default, docs/languages.md), not in the one the browser would ask for.
  useEffect(() => {
    fetch(`/api/${me.instance.prefix}/tours`, { headers: { accept: 'application/json', 'accept-language': '*' } })
      .then((r) => r.ok ? r.json() : { tours: [] })
      .then((body: { tours: { id: string, title: string }[] }) => setTitles(new Map(body.tours.map((t) => [t.id, t.title]))))
      .catch(() => {})
  }, [me.instance.prefix])

  // A new view puts focus on its heading, so keyboard and screen reader users start there.
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    main.current?.querySelector<HTMLElement>('h1')?.focus()
  }, [router.path])

  const office: Office = useMemo(() => {
    const formats = formatsFor(me)
    return {
      api, me, formats,
      tourTitle: (id) => titles.get(id) ?? id,
      announce: (text) => {
        setStatus('')
        requestAnimationFrame(() => setStatus(text))
      },
      may: (permission) => me.permissions.includes(permission),
    }
  }, [api, me, titles])

  async function signOut(): Promise<void> {
    try {
      await api.signOut()
    } catch {
      // Signed out here either way: the cookie is gone or the session had already ended.
    }
    onSignedOut()
  }

  const path = router.path
  // A section the role may not open is a page all the same: say so, rather than "not a page".
  const gated = (permission: Permission, name: string, view: () => JSX.Element) =>
    (office.may(permission) ? view() : <NoAccessView section={name} permission={permission} role={me.role} />)
  const view = path === '' || section(path, 'today') ? <TodayView path={path} />
    : path.startsWith('departures/') ? <ManifestView path={path} />
      : path === 'requests' ? gated('bookings.read', 'Requests', () => <RequestsView />)
        : section(path, 'bookings') ? gated('bookings.read', 'Bookings', () => <BookingsView path={path} />)
          : section(path, 'calendar') ? <CalendarView path={path} />
            : section(path, 'catalog') ? gated('catalog.manage', 'Catalog', () => <CatalogView path={path} />)
              : section(path, 'settings') ? gated('catalog.manage', 'Settings', () => <SettingsView path={path} />)
                : <NotFoundView />
  const zones = office.formats.zonesDiffer()
  return (
    <OfficeContext.Provider value={office}>
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="top-bar">
        <p class="brand">{operatorName}</p>
        <nav aria-label="Back office">
          <Link to="" aria-current={path === '' || section(path, 'today') || path.startsWith('departures/') ? 'page' : undefined}>Today</Link>
          {office.may('bookings.read') && <Link to="requests" aria-current={path === 'requests' ? 'page' : undefined}>Requests</Link>}
          {office.may('bookings.read') && <Link to="bookings" aria-current={section(path, 'bookings') ? 'page' : undefined}>Bookings</Link>}
          <Link to="calendar" aria-current={section(path, 'calendar') ? 'page' : undefined}>Calendar</Link>
          {office.may('catalog.manage') && <Link to="catalog" aria-current={section(path, 'catalog') ? 'page' : undefined}>Catalog</Link>}
          {office.may('catalog.manage') && <Link to="settings" aria-current={section(path, 'settings') ? 'page' : undefined}>Settings</Link>}
        </nav>
        <div class="who">
          <span>{me.name} <span class="role">({me.role})</span></span>
          <button type="button" class="button quiet" onClick={signOut}>Sign out</button>
        </div>
      </header>
      {zones && <p class="zone-note">All times are {office.formats.zoneName(me.instance.timezone)} ({me.instance.timezone}), the operator's zone.</p>}
      <main id="main" ref={main}>{view}</main>
      <p class="status-line" role="status" aria-live="polite">{status}</p>
    </OfficeContext.Provider>
  )
}

/** Whether a path is a section's page or one below it: 'bookings', 'bookings/ABC123'. */
function section(path: string, name: string): boolean {
  return path === name || path.startsWith(`${name}/`)
}
