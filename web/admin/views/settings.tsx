import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { NotFoundView } from './not-found.tsx'
import { ApiKeysSettings } from './settings-api-keys.tsx'
import { EmailStatusLine } from './settings-email-status.tsx'
import { EmailLog } from './settings-emails.tsx'
import { NotificationSettings } from './settings-notifications.tsx'
import { ResellerKeysSettings } from './settings-reseller-keys.tsx'
import { StaffSettings } from './settings-staff.tsx'
import { WebhookDetail, WebhookSettings } from './settings-webhooks.tsx'
import './settings.css'

interface Section { path: string, title: string, about: string, permission: string }

/** The settings pages: app.tsx shows Settings to catalog.manage; access to the instance (access.manage) guards the rest. */
const SECTIONS: Section[] = [
  { path: 'notifications', title: 'Notifications', about: 'Who gets the operator’s emails, the sender, guest reminders and how long requests wait.', permission: 'catalog.manage' },
  { path: 'webhooks', title: 'Webhooks', about: 'Send booking and departure events to other systems; see each delivery, test and replay.', permission: 'access.manage' },
  { path: 'api-keys', title: 'API keys', about: 'Keys for integrations that use the operator API.', permission: 'access.manage' },
  { path: 'reseller-keys', title: 'Reseller keys', about: 'Keys for resellers that book your tours through the OCTo API, with their tours and commission.', permission: 'access.manage' },
  { path: 'staff', title: 'Staff accounts', about: 'Who can sign in to the back office, and with which role.', permission: 'access.manage' },
  { path: 'emails', title: 'Email log', about: 'Every email sent to guests and to you, and whether it went out.', permission: 'access.manage' },
]

/** Settings for managers (issue 17): `settings` is the index; `settings/<section>` and `settings/webhooks/<id>` its pages. */
export function SettingsView({ path }: { path: string }) {
  return <div class="settings-page"><SettingsPage path={path} /></div>
}

function SettingsPage({ path }: { path: string }) {
  const { may } = useOffice()
  const [, name = '', id, ...rest] = path.split('/')
  const section = SECTIONS.find((s) => s.path === name)
  if (name === '') return <SettingsIndex />
  if (!section || !may(section.permission) || rest.length > 0) return <NotFoundView />
  if (id !== undefined) return name === 'webhooks' && id !== '' ? <WebhookDetail id={decodeURIComponent(id)} /> : <NotFoundView />
  switch (section.path) {
    case 'notifications': return <NotificationSettings />
    case 'webhooks': return <WebhookSettings />
    case 'api-keys': return <ApiKeysSettings />
    case 'reseller-keys': return <ResellerKeysSettings />
    case 'staff': return <StaffSettings />
    default: return <EmailLog />
  }
}

function SettingsIndex() {
  const { may, me } = useOffice()
  return (
    <>
      <h1 tabIndex={-1}>Settings <span class="subtitle">{me.instance.name}</span></h1>
      {may('access.manage') && <EmailStatusLine />}
      <ul class="cards settings-index">
        {SECTIONS.filter((s) => may(s.permission)).map((s) => (
          <li class="card" key={s.path}>
            <h2><Link to={`settings/${s.path}`}>{s.title}</Link></h2>
            <p>{s.about}</p>
          </li>
        ))}
      </ul>
    </>
  )
}
