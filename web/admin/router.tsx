import type { ComponentChildren } from 'preact'
import { createContext } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'

/** Paths are relative to the back office's base (/admin/<prefix>/): '' is Today, 'requests', 'departures/<tour>/<start>'. */
export interface Router {
  path: string
  navigate(path: string, options?: { replace?: boolean }): void
  href(path: string): string
}

const RouterContext = createContext<Router | null>(null)

export function useRouter(): Router {
  const router = useContext(RouterContext)
  if (!router) throw new Error('useRouter outside <RouterProvider>')
  return router
}

function currentPath(base: string): string {
  const path = location.pathname
  return path.startsWith(base) ? decodeURI(path.slice(base.length)).replace(/\/$/, '') : ''
}

/** Client-side routing with the History API: the server answers every path below base with the same page. */
export function RouterProvider({ base, children }: { base: string, children: ComponentChildren }) {
  const [path, setPath] = useState(() => currentPath(base))
  useEffect(() => {
    const back = () => setPath(currentPath(base))
    addEventListener('popstate', back)
    return () => removeEventListener('popstate', back)
  }, [base])
  const router: Router = {
    path,
    href: (to) => base + to,
    navigate(to, options = {}) {
      if (options.replace) history.replaceState(null, '', base + to)
      else history.pushState(null, '', base + to)
      setPath(to)
    },
  }
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>
}

/** A link that changes the view without reloading; a modified click (new tab) is left to the browser. */
export function Link({ to, children, class: className, ...rest }: { to: string, children: ComponentChildren, class?: string, 'aria-current'?: 'page' | undefined }) {
  const router = useRouter()
  const click = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    router.navigate(to)
  }
  return <a href={router.href(to)} class={className} onClick={click} {...rest}>{children}</a>
}
