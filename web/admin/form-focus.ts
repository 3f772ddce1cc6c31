import { useEffect, useRef } from 'preact/hooks'

/**
 * Focus for a view that is one form (sign-in, setup): its heading once drawn, unless the user
 * has already moved into the form meanwhile (typing must not lose its field), and then its
 * error line whenever a refusal appears there.
 */
export function useFormViewFocus(error: string | null) {
  const heading = useRef<HTMLHeadingElement>(null)
  const errorLine = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus()
  }, [])
  useEffect(() => { if (error) errorLine.current?.focus() }, [error])
  return { heading, errorLine }
}
