import { ROLES, roleMay, type Permission, type Role } from '../../../src/domain/roles.ts'
import { Link } from '../router.tsx'

export function NotFoundView() {
  return (
    <>
      <h1 tabIndex={-1}>Nothing here</h1>
      <p>This address is not a page of the back office. <Link to="">Go to Today</Link>.</p>
    </>
  )
}

const PLURAL: Record<Role, string> = { guide: 'guides', viewer: 'viewers', staff: 'staff', manager: 'managers' }
const ONE: Record<Role, string> = { guide: 'a guide', viewer: 'a viewer', staff: 'a staff member', manager: 'a manager' }

/** A section that exists but that the signed-in role may not open: who may (src/domain/roles.ts), and who can change that. */
export function NoAccessView({ section, permission, role }: { section: string, permission: Permission, role: Role }) {
  const open = ROLES.filter((r) => roleMay(r, permission)).map((r) => PLURAL[r])
  const who = open.length > 1 ? `${open.slice(0, -1).join(', ')} and ${open.at(-1)}` : open[0]
  return (
    <>
      <h1 tabIndex={-1}>No access to {section}</h1>
      <p>{section} is open to {who}. You are signed in as {ONE[role]}, so it is not open to you; a manager can change your role. <Link to="">Go to Today</Link>.</p>
    </>
  )
}
