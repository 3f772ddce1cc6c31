import { useState } from 'preact/hooks'
import { useOffice } from '../session.tsx'
import { useFormErrors } from './catalog-fields.tsx'

/** What a save answers: the draft the form now shows (as the API saved it) and what to say about it. */
export interface SavedDraft<Draft> {
  draft: Draft
  text: string
}

/**
 * A catalog form's draft, its errors (useFormErrors) and its saving, as the languages, policy
 * and translations forms (catalog-languages.tsx, catalog-policy.tsx, catalog-translations.tsx)
 * share them: `saved` holds what was said about the draft last saved, which FormEnd shows
 * while the draft is still that one.
 */
export function useDraftSaving<Draft>(initial: Draft | (() => Draft)) {
  const { announce } = useOffice()
  const [draft, setDraft] = useState<Draft>(initial)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState<SavedDraft<Draft> | null>(null)
  const errors = useFormErrors()

  /**
   * Sends `request` with the form busy; its answer becomes the draft, shown and announced as
   * saved, then `after` runs (a reload of what the page shows around the form). A refusal is
   * shown at the fields it names.
   */
  async function save(request: () => Promise<SavedDraft<Draft>>, after?: () => Promise<void>): Promise<void> {
    setBusy(true)
    try {
      const answer = await request()
      setDraft(answer.draft)
      setSaved(answer)
      announce(answer.text)
      await after?.()
    } catch (err) {
      errors.showRefusal(err)
    } finally {
      setBusy(false)
    }
  }

  /** Says that nothing changed, without asking the API. */
  const unchanged = (text: string) => setSaved({ text, draft })

  return { ...errors, draft, setDraft, busy, saved, save, unchanged }
}
