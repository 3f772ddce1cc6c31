import type { CatalogTour } from '../schemas/catalog.ts'

/** Case- and accent-insensitive words: "Belém À-Noite" → ["belem", "a", "noite"]. */
export function searchWords(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

const FIELD_WEIGHTS = { title: 8, tags: 4, summary: 2, meeting_point: 1 } as const

type SearchableTour = Pick<CatalogTour, 'title' | 'summary' | 'tags' | 'meeting_point' | 'translations'>

/**
 * What a tour's translation into `language` gives the index of that language: its own
 * words only, since a search in a language also searches the default's index (searchTours
 * takes both), so a text left untranslated is found in the default's.
 */
export function translatedSearchFields(tour: Pick<CatalogTour, 'translations'>, language: string): SearchableTour {
  const translation = tour.translations?.[language]
  return {
    title: translation?.title ?? '', summary: translation?.summary ?? '', tags: [],
    meeting_point: { name: translation?.meeting_point?.name ?? '', address: '', lat: 0, lng: 0 },
  }
}

/**
 * An inverted index over the searchable fields: sorted distinct words, each with the
 * weight it gives every tour it occurs in. A query word matches the words it is a prefix
 * of, found by binary search, so a search costs the matches, not the catalog size.
 *
 * Tours are indexed by slot, a number each keeps while it is in the index, and `positions`
 * says where each slot's tour is in the list searched (-1: indexed but not listed, as an
 * archived tour). So a new order or an archived tour changes only `positions`, and a tour
 * edit only that tour's words (reviseSearchIndex). Word i's postings are entries
 * `starts[i]` to `starts[i + 1]` of `slots` and `weights`: packed, as a catalog of ten
 * thousand tours has hundreds of thousands (a Map each word would cost ten times the
 * memory). Never changed once made: a revision makes a new index.
 */
export interface TourSearchIndex {
  words: string[]
  starts: Int32Array
  slots: Int32Array
  weights: Uint8Array
  positions: Int32Array
}

/** The words a tour gives the index, each with the weight of the most telling field it is in. */
function weightedWords(tour: SearchableTour): Map<string, number> {
  const weights = new Map<string, number>()
  const fields: [keyof typeof FIELD_WEIGHTS, string][] = [
    ['title', tour.title],
    ['tags', tour.tags.join(' ')],
    ['summary', tour.summary],
    ['meeting_point', `${tour.meeting_point.name} ${tour.meeting_point.address}`],
  ]
  for (const [field, text] of fields) {
    for (const word of searchWords(text)) weights.set(word, Math.max(weights.get(word) ?? 0, FIELD_WEIGHTS[field]))
  }
  return weights
}

/** Packs postings given per word (slot and weight pairs, in any word order) into an index. */
function pack(byWord: Map<string, number[]>, positions: Int32Array): TourSearchIndex {
  const words = [...byWord.keys()].sort()
  const starts = new Int32Array(words.length + 1)
  words.forEach((word, i) => {
    starts[i + 1] = starts[i] + byWord.get(word)!.length / 2
  })
  const slots = new Int32Array(starts[words.length])
  const weights = new Uint8Array(starts[words.length])
  words.forEach((word, i) => {
    const pairs = byWord.get(word)!
    for (let k = 0; k < pairs.length; k += 2) {
      slots[starts[i] + k / 2] = pairs[k]
      weights[starts[i] + k / 2] = pairs[k + 1]
    }
  })
  return { words, starts, slots, weights, positions }
}

/** The index of `tours`, each in the slot of its index; listed in that order unless `positions` says otherwise. */
export function buildSearchIndex(tours: readonly SearchableTour[], positions?: Int32Array): TourSearchIndex {
  const byWord = new Map<string, number[]>()
  tours.forEach((tour, slot) => {
    for (const [word, weight] of weightedWords(tour)) {
      const pairs = byWord.get(word)
      if (pairs) pairs.push(slot, weight)
      else byWord.set(word, [slot, weight])
    }
  })
  return pack(byWord, positions ?? Int32Array.from(tours, (_, slot) => slot))
}

/** A slot's tour as it is indexed (null: new to the index) and as it is to be (null: it leaves the index). */
export interface SearchRevision {
  slot: number
  before: SearchableTour | null
  after: SearchableTour | null
}

/**
 * `index` with the tours of `revisions` indexed afresh, listed in the order `positions` (by
 * slot) gives. Only the words those tours had or have are gone through; the postings of the
 * others are copied a block at a time.
 */
export function reviseSearchIndex(index: TourSearchIndex, revisions: readonly SearchRevision[], positions: Int32Array): TourSearchIndex {
  if (revisions.length === 0) return { ...index, positions }
  const revised = new Set(revisions.map((revision) => revision.slot))
  const added = new Map<string, number[]>()
  const touched = new Set<string>()
  for (const { slot, before, after } of revisions) {
    if (before) for (const word of weightedWords(before).keys()) touched.add(word)
    if (after) {
      for (const [word, weight] of weightedWords(after)) {
        touched.add(word)
        const pairs = added.get(word)
        if (pairs) pairs.push(slot, weight)
        else added.set(word, [slot, weight])
      }
    }
  }
  const newWords = [...added.keys()].filter((word) => index.words[firstAtOrAfter(index.words, word)] !== word).sort()
  const candidates = mergeSorted(index.words, newWords)
  const words: string[] = []
  const starts = new Int32Array(candidates.length + 1)
  const slots = new Int32Array(index.slots.length + [...added.values()].reduce((sum, pairs) => sum + pairs.length / 2, 0))
  const weights = new Uint8Array(slots.length)
  let end = 0
  let kept = 0
  // A run of untouched words is copied in one go once a touched word (or the end) closes it.
  let runFrom = -1
  let runTo = -1
  const copyRun = () => {
    if (runFrom < 0) return
    slots.set(index.slots.subarray(runFrom, runTo), end)
    weights.set(index.weights.subarray(runFrom, runTo), end)
    end += runTo - runFrom
    runFrom = runTo = -1
  }
  for (const word of candidates) {
    const old = index.words[kept] === word ? kept++ : -1
    if (old >= 0 && !touched.has(word)) {
      if (runFrom < 0) runFrom = index.starts[old]
      runTo = index.starts[old + 1]
      words.push(word)
      starts[words.length] = end + runTo - runFrom
      continue
    }
    copyRun()
    const first = end
    if (old >= 0) {
      for (let k = index.starts[old]; k < index.starts[old + 1]; k++) {
        if (revised.has(index.slots[k])) continue
        slots[end] = index.slots[k]
        weights[end++] = index.weights[k]
      }
    }
    const pairs = added.get(word) ?? []
    for (let k = 0; k < pairs.length; k += 2) {
      slots[end] = pairs[k]
      weights[end++] = pairs[k + 1]
    }
    // A word no tour has any longer leaves the index.
    if (end === first) continue
    words.push(word)
    starts[words.length] = end
  }
  copyRun()
  return { words, starts: starts.subarray(0, words.length + 1), slots: slots.subarray(0, end), weights: weights.subarray(0, end), positions }
}

function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return a.slice()
  const merged: string[] = []
  let j = 0
  for (const word of a) {
    while (j < b.length && b[j] < word) merged.push(b[j++])
    merged.push(word)
  }
  while (j < b.length) merged.push(b[j++])
  return merged
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

/**
 * Positions of matching tours, best first; ties keep catalog order. Every query word must
 * match, in any of `indexes` (the default language's and a translation's, which list the
 * tours in the same slots and positions): a word scores its best match among them.
 */
export function searchTours(indexes: TourSearchIndex | readonly TourSearchIndex[], query: string): number[] {
  const searched = Array.isArray(indexes) ? indexes as readonly TourSearchIndex[] : [indexes as TourSearchIndex]
  const queryWords = [...new Set(searchWords(query))]
  if (queryWords.length === 0) return []
  let scores: Map<number, number> | null = null
  for (const queryWord of queryWords) {
    const wordScores = new Map<number, number>()
    for (const index of searched) {
      for (let i = firstAtOrAfter(index.words, queryWord); i < index.words.length && index.words[i].startsWith(queryWord); i++) {
        const exact = index.words[i] === queryWord ? 2 : 1
        for (let k = index.starts[i]; k < index.starts[i + 1]; k++) {
          const slot = index.slots[k]
          wordScores.set(slot, Math.max(wordScores.get(slot) ?? 0, index.weights[k] * exact))
        }
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
  const listed: Array<[position: number, score: number]> = []
  for (const [slot, score] of scores!) {
    const position = searched[0].positions[slot]
    if (position >= 0) listed.push([position, score])
  }
  return listed.sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([position]) => position)
}
