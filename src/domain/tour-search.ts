import type { CatalogTour } from '../schemas/catalog.ts'

/** Case- and accent-insensitive words: "Belém À-Noite" → ["belem", "a", "noite"]. */
export function searchWords(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

const FIELD_WEIGHTS = { title: 8, tags: 4, summary: 2, meeting_point: 1 } as const

type SearchableTour = Pick<CatalogTour, 'title' | 'summary' | 'tags' | 'meeting_point'>

/**
 * An inverted index over the searchable fields: sorted distinct words, each with the
 * weight it gives every tour it occurs in. A query word matches the words it is a prefix
 * of, found by binary search, so a search costs the matches, not the catalog size.
 */
export interface TourSearchIndex {
  words: string[]
  postings: Map<number, number>[]
}

export function buildSearchIndex(tours: readonly SearchableTour[]): TourSearchIndex {
  const byWord = new Map<string, Map<number, number>>()
  tours.forEach((tour, position) => {
    const fields: [keyof typeof FIELD_WEIGHTS, string][] = [
      ['title', tour.title],
      ['tags', tour.tags.join(' ')],
      ['summary', tour.summary],
      ['meeting_point', `${tour.meeting_point.name} ${tour.meeting_point.address}`],
    ]
    for (const [field, text] of fields) {
      for (const word of new Set(searchWords(text))) {
        const posting = byWord.get(word) ?? new Map<number, number>()
        posting.set(position, Math.max(posting.get(position) ?? 0, FIELD_WEIGHTS[field]))
        byWord.set(word, posting)
      }
    }
  })
  const words = [...byWord.keys()].sort()
  return { words, postings: words.map((w) => byWord.get(w)!) }
}

function firstAtOrAfter(words: string[], target: string): number {
  let lo = 0
  let hi = words.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (words[mid] < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Positions of matching tours, best first; ties keep catalog order. Every query word must match. */
export function searchTours(index: TourSearchIndex, query: string): number[] {
  const queryWords = [...new Set(searchWords(query))]
  if (queryWords.length === 0) return []
  let scores: Map<number, number> | null = null
  for (const queryWord of queryWords) {
    const wordScores = new Map<number, number>()
    for (let i = firstAtOrAfter(index.words, queryWord); i < index.words.length && index.words[i].startsWith(queryWord); i++) {
      const exact = index.words[i] === queryWord ? 2 : 1
      for (const [position, weight] of index.postings[i]) {
        wordScores.set(position, Math.max(wordScores.get(position) ?? 0, weight * exact))
      }
    }
    if (scores === null) {
      scores = wordScores
    } else {
      const previous: Map<number, number> = scores
      scores = new Map([...wordScores].filter(([p]) => previous.has(p)).map(([p, s]) => [p, s + previous.get(p)!]))
    }
    if (scores.size === 0) return []
  }
  return [...scores!].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([position]) => position)
}
