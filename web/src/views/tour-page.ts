import type { Booking } from '../../../src/schemas/booking.ts'
import type { Policies } from '../../../src/schemas/policy.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { h, Message } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { Page, View } from '../page.ts'
import { explainError } from '../problems.ts'
import { BookingSection } from './booking-section.ts'
import { ageRange } from './unit-counts.ts'

function fact(term: string, ...detail: (Node | string)[]): HTMLElement {
  return h('div', {}, h('dt', {}, term), h('dd', {}, ...detail))
}

/** The tour's facts; `lang` marks the catalog's words (the meeting point) when they are not in the page's language. */
function tourFacts(formats: Formats, tour: Tour, lang: string | null): HTMLElement {
  const { words } = formats
  const point = tour.meeting_point
  return h('dl', { class: 'facts' },
    tour.units.length > 1
      ? fact(words.tour.prices, h('ul', { class: 'unit-prices' }, tour.units.map((unit) => {
        const ages = ageRange(words, unit)
        return h('li', {}, `${unit.name}${ages ? ` (${ages})` : ''}: ${unit.price.amount === 0 ? words.free : formats.price(unit.price.amount)}`)
      })))
      : fact(words.tour.price, words.perPerson(formats.price(tour.price.amount))),
    fact(words.duration, formats.duration(tour.duration_minutes)),
    fact(words.languages, formats.languages(tour.languages)),
    fact(words.tour.groupSize, words.peopleRange(tour.party.min, tour.party.max)),
    fact(words.meetingPoint, h('span', { lang }, `${point.name}, ${point.address}`)),
    fact(words.tour.confirmation, tour.confirmation === 'instant' ? words.tour.instant : words.tour.onRequest),
  )
}

/** The cancellation tiers as sentences: "Cancel 48 hours or more before the start: free of charge." */
function policySection(formats: Formats, policies: Policies, lang: string | null): HTMLElement {
  const { cancellation, payment } = policies
  const words = formats.words.tour
  const tiers = [...cancellation.tiers].sort((a, b) => b.hours_before_start - a.hours_before_start)
  const fee = (percent: number) => percent === 0 ? words.feeFree : percent === 100 ? words.feeFull : words.feePart(formats.percent(percent))
  const items = tiers.map((tier, i) => {
    const hours = tier.hours_before_start
    const previous = i > 0 ? tiers[i - 1].hours_before_start : null
    const when = previous === null ? (hours > 0 ? words.hoursOrMore(hours) : words.anyTime)
      : hours > 0 ? words.between(previous, hours) : words.lessThan(previous)
    return h('li', {}, words.tier(when, fee(tier.fee_percent)))
  })
  items.push(h('li', {}, words.noShow(fee(cancellation.no_show_fee_percent))))
  return h('section', { class: 'policy', 'aria-labelledby': 'policy-title' },
    h('h2', { id: 'policy-title' }, words.policyTitle),
    h('p', { lang }, cancellation.summary),
    h('ul', {}, items),
    h('p', {}, words.payOnArrival(formats.paymentMethods(payment.methods))),
  )
}

/** One tour: its details, add-ons, policy in plain words, and the booking section. */
export function renderTourPage(page: Page, tourId: string, held: Booking | null): View {
  const { words } = page
  const title = h('h1', { id: 'page-title' }, words.tour.loading)
  const problem = new Message('tour-error')
  const body = h('div', { class: 'tour-body' })
  let section: BookingSection | null = null
  let disposed = false
  const element = h('div', { class: 'view tour-view' },
    h('p', { class: 'back' }, h('a', { href: page.listHref(), onclick: (event) => page.follow(event, page.listHref()) }, words.allTours),
      ' · ', h('a', { href: page.manageHref(), onclick: (event) => page.follow(event, page.manageHref()) }, words.manageMyBooking)),
    title, problem.element, body)

  void (async () => {
    try {
      const [{ body: tour, language }, policies] = await Promise.all([
        page.api.getTexts<Tour>(`/tours/${encodeURIComponent(tourId)}`),
        page.api.getTexts<Policies>('/policies'),
      ])
      if (disposed) return
      const lang = page.textLanguage(language)
      title.textContent = tour.title
      if (lang) title.setAttribute('lang', lang)
      document.title = `${tour.title} · ${page.operatorName}`
      section = new BookingSection(page, tour, held)
      body.append(
        h('p', { class: 'summary', lang }, tour.summary),
        tourFacts(page.formats, tour, lang),
        h('p', { class: 'description', lang }, tour.description),
        policySection(page.formats, policies.body, page.textLanguage(policies.language)),
        section.element,
      )
    } catch (err) {
      title.textContent = words.tour.notAvailable
      problem.show(explainError(page.formats, err).text)
    }
  })()
  return {
    element,
    dispose: () => {
      disposed = true
      section?.dispose()
    },
  }
}
