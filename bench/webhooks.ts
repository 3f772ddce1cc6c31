import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureOutboxCost } from './outbox-cost.ts'
import type { WebhookResults } from './results-model.ts'
import { measureDeliveries } from './webhook-deliveries.ts'

/** Issue 16's figures: what the outbox adds to the checkout cycle, and how fast one node delivers to a receiver. */
export async function measureWebhooks(newDatabase: (name: string) => Promise<BenchDatabase>, ctx: RunContext): Promise<WebhookResults> {
  return { outboxCost: await measureOutboxCost(newDatabase, ctx), deliveries: await measureDeliveries(newDatabase, ctx) }
}
