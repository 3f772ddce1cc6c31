// Type-only: the schema module would pull the schema library into the page's bundle.
import type { DECOY_FIELD_NAMES } from '../../../src/schemas/decoy-fields.ts'
import { h } from '../dom.ts'

type DecoyName = (typeof DECOY_FIELD_NAMES)[number]

/** Every decoy the API knows (the type makes a missing or extra one a compile error), with a label a bot would expect. */
const LABELS: Record<DecoyName, string> = {
  company: 'Company',
  fax: 'Fax',
  middle_name: 'Middle name',
  nickname: 'Nickname',
  website: 'Website',
}

/**
 * The spam decoys the API accepts on every form. People never meet them: the group is
 * hidden from sight and from assistive technology, and no field takes focus or autofill.
 * Whatever a bot types into them is sent, and the API quarantines the submission.
 */
export function decoyFields(form: string): { element: HTMLElement, values(): Record<string, string> } {
  const inputs = (Object.keys(LABELS) as DecoyName[]).map((name) => h('input', { id: `${form}-${name}`, name, type: 'text', tabindex: -1, autocomplete: 'off' }))
  const element = h('div', { class: 'decoy-fields', 'aria-hidden': 'true' },
    inputs.map((input) => h('p', {}, h('label', { for: input.id }, LABELS[input.name as DecoyName]), input)))
  return {
    element,
    values: () => Object.fromEntries(inputs.filter((i) => i.value !== '').map((i) => [i.name, i.value])),
  }
}
