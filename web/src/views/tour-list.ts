import type { Tour, TourList } from '../../../src/schemas/tour.ts'
import { explainError } from '../problems.ts'
import { h, Message, replaceContent } from '../dom.ts'
import type { Page } from '../page.ts'

function tourCard(page: Page, tour: Tour): HTMLElement {
  const { formats } = page
  return h('li', { class: 'tour-card' },
    h('h2', {}, h('a', { href: page.tourHref(tour.id), onclick: (event) => page.follow(event, page.tourHref(tour.id)) }, tour.title)),
    h('p', {}, tour.summary),
    h('dl', { class: 'facts' },
      h('div', {}, h('dt', {}, 'From'), h('dd', {}, `${formats.price(tour.price.amount)} per person`)),
      h('div', {}, h('dt', {}, 'Duration'), h('dd', {}, formats.duration(tour.duration_minutes))),
      h('div', {}, h('dt', {}, 'Languages'), h('dd', {}, formats.languages(tour.languages))),
    ),
  )
}

/** The list of tours with a search box; each title links to the tour's own page. */
export function renderTourList(page: Page, query: string): HTMLElement {
  const search = h('input', { id: 'search', type: 'search', name: 'q', value: query, autocomplete: 'off', maxlength: 200 })
  const status = h('p', { id: 'list-status', class: 'list-status', 'aria-live': 'polite' })
  const list = h('ul', { class: 'tour-list', 'aria-labelledby': 'list-status' })
  const problem = new Message('list-error', search)

  async function load(q: string): Promise<void> {
    problem.clear()
    status.textContent = 'Loading tours…'
    try {
      const answer = await page.api.get<TourList>(q ? `/tours?q=${encodeURIComponent(q)}` : '/tours')
      replaceContent(list, answer.tours.map((tour) => tourCard(page, tour)))
      status.textContent = answer.total === 0 ? `No tours match “${q}”.`
        : q ? `${answer.total} ${answer.total === 1 ? 'tour matches' : 'tours match'} “${q}”` : `${answer.total} tours`
    } catch (err) {
      status.textContent = ''
      problem.show(explainError(err).text)
    }
  }

  const form = h('form', {
    role: 'search',
    class: 'search',
    onsubmit: (event) => {
      event.preventDefault()
      page.rememberQuery(search.value.trim())
      void load(search.value.trim())
    },
  },
  h('label', { for: 'search' }, 'Search tours'),
  h('div', { class: 'search-row' }, search, h('button', { type: 'submit' }, 'Search')),
  problem.element,
  )
  document.title = `Book a tour · ${page.operatorName}`
  void load(query)
  return h('div', { class: 'view tour-list-view' },
    h('h1', { id: 'page-title' }, `Book a tour with ${page.operatorName}`),
    h('p', { class: 'manage-entry' }, 'Booked already? ',
      h('a', { href: page.manageHref(), onclick: (event) => page.follow(event, page.manageHref()) }, 'Manage my booking')),
    form, status, list)
}
