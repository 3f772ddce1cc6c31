import { render } from 'preact'
import './admin.css'
import { AdminApi } from './api.ts'
import { App } from './app.tsx'
import { RouterProvider } from './router.tsx'

const root = document.getElementById('app')
if (root) {
  const { base = '/', api = '', name = '' } = root.dataset
  const prefix = base.split('/').filter(Boolean)[1] ?? ''
  root.replaceChildren()
  render(<RouterProvider base={base}><App api={new AdminApi(api, prefix)} operatorName={name} /></RouterProvider>, root)
}
