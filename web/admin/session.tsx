import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { Formats } from '../src/format.ts'
import { en } from '../src/words/en.ts'
import type { AdminApi, Me } from './api.ts'

/** What every signed-in view needs: the API, who is signed in, formats in the operator's zone, tour names, and the status line. */
export interface Office {
  api: AdminApi
  me: Me
  formats: Formats
  tourTitle(id: string): string
  /** Says something in the page's status line (a polite live region). */
  announce(text: string): void
  may(permission: string): boolean
}

export const OfficeContext = createContext<Office | null>(null)

export function useOffice(): Office {
  const office = useContext(OfficeContext)
  if (!office) throw new Error('useOffice outside a signed-in page')
  return office
}

/** The operator's zone and currency, in the browser's own locale; the back office's words are English (docs/languages.md). */
export function formatsFor(me: Me): Formats {
  return new Formats(navigator.language || 'en', me.instance.timezone, me.instance.currency, en)
}
