import { LruMap } from '../domain/lru-map.ts'

/**
 * Serialized answers kept for reuse within a budget of bytes, least recently used dropped
 * first. Keys name everything an answer depends on (an instance's catalog version among
 * them), so an answer of a version no longer served is never asked for again and ages out.
 */
export class KeptAnswers extends LruMap<string, Buffer> {
  constructor(budgetBytes: number) {
    super(budgetBytes, (body) => body.length)
  }
}
