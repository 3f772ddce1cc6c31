import type { PageLanguage } from '../../web/src/page-language.ts'
import { de } from '../../web/src/words/de.ts'
import { en, type PageWords } from '../../web/src/words/en.ts'
import { es } from '../../web/src/words/es.ts'
import { fr } from '../../web/src/words/fr.ts'
import { pt } from '../../web/src/words/pt.ts'

/** Every catalogue of the booking page, read directly (the page fetches all but English as chunks). */
export const PAGE_CATALOGUES: Record<PageLanguage, PageWords> = { en, pt, es, fr, de }
