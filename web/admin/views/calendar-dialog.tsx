import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'

/**
 * A modal dialog, the browser's own: focus stays inside it, Escape closes it, the page behind
 * is inert. `onClose` runs when it closes (Escape or its close button), not when the view it
 * belongs to goes away; the opener puts focus back where it was.
 */
export function Dialog({ labelledBy, onClose, children }: { labelledBy: string, onClose: () => void, children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null)
  const closed = useRef(onClose)
  closed.current = onClose
  // Opened before paint, and before the dialog's opener puts focus on its first field (a layout
  // effect of the parent, web/admin/views/calendar-add.tsx), which a closed dialog cannot take.
  useLayoutEffect(() => {
    const dialog = ref.current!
    const close = () => closed.current()
    dialog.addEventListener('close', close)
    dialog.showModal()
    return () => {
      dialog.removeEventListener('close', close)
      if (dialog.open) dialog.close()
    }
  }, [])
  return <dialog ref={ref} class="calendar-dialog" aria-labelledby={labelledBy}>{children}</dialog>
}

/** Closes the dialog that holds an element (a button inside it). */
export function closeDialogOf(element: Element | null): void {
  element?.closest('dialog')?.close()
}

/** A key for POST's Idempotency-Key: one per distinct request, so a retry of the same one is answered once. */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The message under a field, and the attributes that tie the field to it and to its hint. */
export function fieldProps(id: string, error: string | undefined, hint = false) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return { id, 'aria-invalid': error ? true as const : undefined, 'aria-describedby': describedBy || undefined }
}

export function FieldError({ id, error }: { id: string, error: string | undefined }) {
  return error ? <p class="field-error" id={`${id}-error`}>{error}</p> : null
}
