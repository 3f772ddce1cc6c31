import { sql } from 'kysely'
import type { Db } from './database.ts'

export function promoRedemptionRepository(db: Db) {
  return {
    async uses(instanceId: string, code: string, trx: Db = db): Promise<number> {
      const row = await trx.selectFrom('promo_redemptions').select('uses')
        .where('instance_id', '=', instanceId).where('code', '=', code).executeTakeFirst()
      return row?.uses ?? 0
    },

    /** Counts one use if the cap allows it, in one conditional update. */
    async redeem(trx: Db, instanceId: string, code: string, maxUses: number | null): Promise<boolean> {
      await trx.insertInto('promo_redemptions')
        .values({ instance_id: instanceId, code, uses: 0 })
        .onConflict((oc) => oc.columns(['instance_id', 'code']).doNothing())
        .execute()
      let update = trx.updateTable('promo_redemptions')
        .set({ uses: sql`uses + 1` })
        .where('instance_id', '=', instanceId)
        .where('code', '=', code)
      if (maxUses !== null) update = update.where('uses', '<', maxUses)
      const result = await update.executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async release(trx: Db, instanceId: string, code: string): Promise<void> {
      await trx.updateTable('promo_redemptions')
        .set({ uses: sql`uses - 1` })
        .where('instance_id', '=', instanceId)
        .where('code', '=', code)
        .where('uses', '>', 0)
        .execute()
    },
  }
}
