import type { Location, Product } from '@octocloud/types'
import { tourTexts } from '../domain/translation.ts'
import type { CatalogTour } from '../schemas/catalog.ts'

type ProductContent = Pick<Product, 'title' | 'shortDescription' | 'description' | 'features' | 'faqs' | 'media' | 'locations' | 'categoryLabels'
  | 'durationMinutesFrom' | 'durationMinutesTo' | 'commentary'>

/**
 * A product's octo/content fields (docs/resellers.md, "Capabilities") in `language`, one of the
 * instance's: each text from the tour's translation in it, else the default language's, field
 * by field (src/domain/translation.ts). The meeting point is the START location; the tour is
 * guided in person in each of its languages. What the catalog does not keep (features, FAQs,
 * media, category labels) is answered empty, as OCTo allows.
 */
export function contentOf(tour: CatalogTour, language: string): ProductContent {
  const texts = tourTexts(tour, language)
  const meetingPoint: Location = {
    title: texts.meeting_point.name,
    shortDescription: null,
    types: ['START'] as Location['types'],
    minutesTo: null,
    minutesAt: null,
    place: {
      latitude: tour.meeting_point.lat,
      longitude: tour.meeting_point.lng,
      postalAddress: { streetAddress: tour.meeting_point.address || null, addressLocality: null, addressRegion: null, postalCode: null, addressCountry: null, postOfficeBoxNumber: null },
      identifiers: { googlePlaceId: null, applePlaceId: null, tripadvisorLocationId: null, yelpPlaceId: null, facebookPlaceId: null, foursquarePlaceId: null, baiduPlaceId: null, amapPlaceId: null },
      sameAs: [],
    },
  }
  return {
    title: texts.title,
    shortDescription: texts.summary,
    description: texts.description,
    features: [],
    faqs: [],
    media: [],
    locations: [meetingPoint],
    categoryLabels: [],
    durationMinutesFrom: tour.duration_minutes,
    durationMinutesTo: null,
    commentary: tour.languages.map((guided) => ({ format: 'IN_PERSON', language: guided })) as Product['commentary'],
  }
}
