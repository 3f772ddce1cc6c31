import type { Tour, TourList } from '../../../src/schemas/tour.ts'
import { explainError } from '../problems.ts'
import { h, Message, replaceContent } from '../dom.ts'
import type { Page } from '../page.ts'

/** One tour's card; `lang` marks its texts when they are not in the page's language. */
function tourCard(page: Page, tour: Tour, lang: string | null): HTMLElement {
  const { formats, words } = page
  return h('li', { class: 'tour-card' },
    h('h2', { lang }, h('a', { href: page.tourHref(tour.id), onclick: (event) => page.follow(event, page.tourHref(tour.id)) }, tour.title)),
    h('p', { lang }, tour.summary),
    h('dl', { class: 'facts' },
      h('div', {}, h('dt', {}, words.tourList.from), h('dd', {}, words.perPerson(formats.price(tour.price.amount)))),
      h('div', {}, h('dt', {}, words.duration), h('dd', {}, formats.duration(tour.duration_minutes))),
      h('div', {}, h('dt', {}, words.languages), h('dd', {}, formats.languages(tour.languages))),
    ),
  )
}

/** The list of tours with a search box; each title links to the tour's own page. */
export function renderTourList(page: Page, query: string): HTMLElement {
  const words = page.words.tourList
  const search = h('input', { id: 'search', type: 'search', name: 'q', value: query, autocomplete: 'off', maxlength: 200 })
  const status = h('p', { id: 'list-status', class: 'list-status', 'aria-live': 'polite' })
  const list = h('ul', { class: 'tour-list', 'aria-labelledby': 'list-status' })
  const problem = new Message('list-error', search)

  async function load(q: string): Promise<void> {
    problem.clear()
    status.textContent = words.loading
    try {
      const { body: answer, language } = await page.api.getTexts<TourList>(q ? `/tours?q=${encodeURIComponent(q)}` : '/tours')
      replaceContent(list, answer.tours.map((tour) => tourCard(page, tour, page.textLanguage(language))))
      status.textContent = answer.total === 0 ? words.noMatch(q) : q ? words.matches(answer.total, q) : words.count(answer.total)
    } catch (err) {
      status.textContent = ''
      problem.show(explainError(page.formats, err).text)
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
  h('label', { for: 'search' }, words.searchLabel),
  h('div', { class: 'search-row' }, search, h('button', { type: 'submit' }, words.searchButton)),
  problem.element,
  )
  document.title = words.documentTitle(page.operatorName)
  void load(query)
  return h('div', { class: 'view tour-list-view' },
    h('h1', { id: 'page-title' }, words.heading(page.operatorName)),
    h('p', { class: 'manage-entry' }, words.bookedAlready,
      h('a', { href: page.manageHref(), onclick: (event) => page.follow(event, page.manageHref()) }, page.words.manageMyBooking)),
    form, status, list)
}
