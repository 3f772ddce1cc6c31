export type Child = Node | string | number | null | undefined | false
type AttributeValue = string | number | boolean | null | undefined
type Attributes = Record<string, AttributeValue | ((event: Event) => void)>

/**
 * Builds an element: `on*` entries become listeners, `true` is an empty attribute and
 * `false`, null and undefined are left out. Text is always set as text, never as HTML.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else if (value === true) element.setAttribute(name, '')
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value))
  }
  append(element, children)
  return element
}

function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/**
 * Replaces a container's content; if focus was inside it, the element with the same id
 * gets it back, so re-rendering a group never throws a keyboard user to the top.
 */
export function replaceContent(container: Element, ...children: (Child | Child[])[]): void {
  const active = document.activeElement
  const focusedId = active && container.contains(active) ? active.id : ''
  container.replaceChildren()
  append(container, children)
  if (focusedId) document.getElementById(focusedId)?.focus()
}

/** Moves focus to a heading or message so screen readers read it, without making it a tab stop. */
export function focusOn(element: HTMLElement): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1')
  element.focus()
}

/** A message next to a field or button; the field is marked invalid and described by it. */
export class Message {
  readonly element: HTMLParagraphElement

  constructor(readonly id: string, private readonly field?: HTMLElement) {
    this.element = h('p', { id, class: 'message', role: 'alert' })
    field?.setAttribute('aria-describedby', [field.getAttribute('aria-describedby'), id].filter(Boolean).join(' '))
  }

  show(text: string, tone: 'error' | 'info' = 'error'): void {
    this.element.textContent = text
    this.element.dataset.tone = tone
    if (tone === 'error') this.field?.setAttribute('aria-invalid', 'true')
    else this.field?.removeAttribute('aria-invalid')
  }

  clear(): void {
    this.element.textContent = ''
    delete this.element.dataset.tone
    this.field?.removeAttribute('aria-invalid')
  }
}
