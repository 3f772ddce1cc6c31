import type { Option, Pricing, Product, Supplier, Unit } from '@octocloud/types'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { netOf } from '../domain/reseller-terms.ts'
import { defaultLanguageOf } from '../domain/translation.ts'
import { unitsOf, type TourUnit } from '../domain/units.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { Reseller } from '../services/reseller-bookings.ts'
import { contentOf } from './content-view.ts'

/** OCTo's one option per product (docs/resellers.md, "Mapping"): tourdesk tours have no options. */
export const OPTION_ID = 'DEFAULT'
/** What confirm needs of the contact: a name (fullName, or firstName and lastName) and an email address. */
const REQUIRED_CONTACT_FIELDS = ['firstName', 'lastName', 'emailAddress'] as Option['requiredContactFields']

/** How an answer is written: the caller's terms, and the capabilities it asked for. */
export interface OctoView {
  catalog: InstanceCatalog
  reseller: Reseller
  pricing: boolean
  /** With octo/content, the language of its texts (one of the instance's, from Accept-Language); else null. */
  contentLanguage: string | null
}

/** The minor units of a currency, as OCTo's currencyPrecision. */
const precisionOf = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2

/** OCTo's price object: retail is the operator's price, net what the operator is owed after the key's commission (src/domain/reseller-terms.ts). */
export function pricingOf(view: OctoView, original: number, retail = original, currency = view.catalog.instance.currency): Pricing {
  return { original, retail, net: netOf(retail, view.reseller.commissionBasisPoints), currency, currencyPrecision: precisionOf(currency), includedTaxes: [] }
}

export function supplierOf(catalog: InstanceCatalog, endpoint: string): Supplier {
  const { instance } = catalog
  return {
    id: instance.ref,
    name: instance.name,
    endpoint,
    contact: { website: instance.allowedOrigins[0] ?? null, email: instance.operator_emails?.[0] ?? null, telephone: null, address: null },
  }
}

export function unitOf(view: OctoView, unit: TourUnit): Unit {
  return {
    id: unit.id,
    internalName: unit.name,
    reference: null,
    type: unit.type.toUpperCase() as Unit['type'],
    restrictions: {
      minAge: unit.min_age ?? 0,
      maxAge: unit.max_age ?? 100,
      idRequired: false,
      minQuantity: unit.min_quantity,
      maxQuantity: unit.max_quantity,
      paxCount: unit.pax,
      accompaniedBy: unit.accompanied_by,
    },
    requiredContactFields: [],
    ...view.pricing ? { pricingFrom: [pricingOf(view, unit.price)], pricing: [pricingOf(view, unit.price)] } : {},
  }
}

/** The notice of the policy's last free cancellation, in hours (no free tier: its smallest notice, after which no cancellation is taken). */
function freeCancellationHours(catalog: InstanceCatalog): number {
  const tiers = catalog.instance.cancellation_policy.tiers
  const free = tiers.filter((t) => t.fee_percent === 0).map((t) => t.hours_before_start)
  return free.length > 0 ? Math.min(...free) : Math.min(...tiers.map((t) => t.hours_before_start))
}

export function optionOf(view: OctoView, tour: CatalogTour): Option {
  const hours = freeCancellationHours(view.catalog)
  const times = [...new Set(tour.schedule.flatMap((rule) => rule.times))].sort()
  const units = unitsOf(tour)
  return {
    id: OPTION_ID,
    default: true,
    internalName: tour.title,
    reference: null,
    availabilityLocalStartTimes: times,
    cancellationCutoff: `${hours} hour${hours === 1 ? '' : 's'}`,
    cancellationCutoffAmount: hours,
    cancellationCutoffUnit: 'hour' as Option['cancellationCutoffUnit'],
    requiredContactFields: REQUIRED_CONTACT_FIELDS,
    restrictions: { minUnits: tour.party.min, maxUnits: tour.party.max },
    units: units.map((unit) => unitOf(view, unit)),
    ...view.pricing ? { pricingFrom: [pricingOf(view, units[0].price)] } : {},
  }
}

export function productOf(view: OctoView, tour: CatalogTour): Product {
  const { instance } = view.catalog
  return {
    id: tour.id,
    internalName: tour.title,
    reference: null,
    // Names without octo/content are the catalog's own, in the instance's default language.
    locale: view.contentLanguage ?? defaultLanguageOf(instance),
    timeZone: instance.timezone,
    allowFreesale: false,
    instantConfirmation: tour.confirmation === 'instant',
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME' as Product['availabilityType'],
    deliveryFormats: ['QRCODE'] as Product['deliveryFormats'],
    deliveryMethods: ['VOUCHER'] as Product['deliveryMethods'],
    redemptionMethod: 'MANIFEST' as Product['redemptionMethod'],
    options: [optionOf(view, tour)],
    ...view.pricing ? { defaultCurrency: instance.currency, availableCurrencies: [instance.currency], pricingPer: 'UNIT' as Product['pricingPer'] } : {},
    ...view.contentLanguage !== null ? contentOf(tour, view.contentLanguage) : {},
  }
}

/** The tours the key may sell: offered (not archived), and among its products if it names any. */
export function sellableTours(view: Pick<OctoView, 'catalog' | 'reseller'>): CatalogTour[] {
  const { products } = view.reseller
  return view.catalog.instance.tours.filter((t) => !t.archived && (products === null || products.includes(t.id)))
}
