/**
 * Which of an instance's languages a guest read is answered in (docs/languages.md): `?lang=`
 * when it names one, else the best of Accept-Language (RFC 9110 §12.5.4), else the default,
 * the first of the instance's languages. Pure: the request's two values come in as strings.
 */

/** One language range of Accept-Language: a tag in lower case, or `*`, and its weight. */
export interface LanguageRange {
  range: string
  q: number
}

/** A header longer than this is not a browser's, and is read as if it were absent. */
const MAX_HEADER_LENGTH = 1024
const RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/
const WEIGHT = /^q=(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/

/**
 * The ranges of an Accept-Language value, best first (equal weights keep their order), q=0
 * ones included; null when the value is malformed anywhere: a header that cannot be read says
 * nothing about the reader, and the default answers rather than a guess or an error.
 */
export function parseAcceptLanguage(header: string): LanguageRange[] | null {
  if (header.length > MAX_HEADER_LENGTH) return null
  const ranges: LanguageRange[] = []
  // The list syntax of RFC 9110 §5.6.1 allows empty elements ("en, , pt").
  for (const element of header.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [tag, ...parameters] = element.split(';').map((part) => part.trim())
    if (!RANGE.test(tag.toLowerCase()) || parameters.length > 1) return null
    const weight = parameters[0]?.toLowerCase().replace(/\s+/g, '')
    if (weight !== undefined && !WEIGHT.test(weight)) return null
    ranges.push({ range: tag.toLowerCase(), q: weight === undefined ? 1 : Number(weight.slice(2)) })
  }
  return ranges.map((range, index) => ({ range, index })).sort((a, b) => b.range.q - a.range.q || a.index - b.index).map(({ range }) => range)
}

/**
 * The offered language a range asks for: the one it names (`pt`), else the one a prefix of it
 * names (`pt-PT` reads `pt`, RFC 4647 lookup), else the first more precise one (`pt` reads
 * `pt-BR`, RFC 4647 basic filtering), else the first of the same language (`pt-PT` reads
 * `pt-BR`: a Portuguese reader rather reads Brazilian Portuguese than the default); `*`, the
 * first offered. Tags compare without case.
 */
export function matchLanguage(offered: readonly string[], range: string, excluded: ReadonlySet<string> = new Set()): string | null {
  const candidates = offered.filter((language) => !excluded.has(language))
  if (range === '*') return candidates[0] ?? null
  const wanted = range.toLowerCase()
  for (let prefix = wanted; prefix !== ''; prefix = prefix.includes('-') ? prefix.slice(0, prefix.lastIndexOf('-')) : '') {
    const found = candidates.find((language) => language.toLowerCase() === prefix)
    if (found) return found
  }
  const primary = wanted.split('-')[0]
  return candidates.find((language) => language.toLowerCase().startsWith(`${wanted}-`))
    ?? candidates.find((language) => language.toLowerCase().startsWith(`${primary}-`)) ?? null
}

/**
 * The language of the answer among `offered` (the instance's languages, its default first):
 * `lang` when it matches one, else the best range of `acceptLanguage` that matches one a q=0
 * range does not refuse, else the default. Never fails: an unknown or malformed value is
 * passed over.
 */
export function negotiateLanguage(offered: readonly string[], request: { lang?: string, acceptLanguage?: string }): string {
  const [defaultLanguage] = offered
  if (offered.length === 1) return defaultLanguage
  if (request.lang !== undefined) {
    const chosen = matchLanguage(offered, request.lang)
    if (chosen) return chosen
  }
  const ranges = request.acceptLanguage === undefined ? null : parseAcceptLanguage(request.acceptLanguage)
  if (!ranges) return defaultLanguage
  // q=0 says "not this one": it refuses the languages it names, exactly or as their prefix.
  const refused = new Set(offered.filter((language) => ranges.some(({ range, q }) => q === 0 && range !== '*'
    && (language.toLowerCase() === range || language.toLowerCase().startsWith(`${range}-`)))))
  for (const { range, q } of ranges) {
    if (q === 0) continue
    const chosen = matchLanguage(offered, range, refused)
    if (chosen) return chosen
  }
  return defaultLanguage
}
