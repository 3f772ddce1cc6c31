import { Link } from '../router.tsx'

export function NotFoundView() {
  return (
    <>
      <h1 tabIndex={-1}>Nothing here</h1>
      <p>This address is not a page of the back office. <Link to="">Go to Today</Link>.</p>
    </>
  )
}
