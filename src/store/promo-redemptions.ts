import type { Db } from './database.ts'
import { statement, type Plan } from './write-plan.ts'

export function promoRedemptionRepository(db: Db) {
  return {
    async uses(instanceId: string, code: string): Promise<number> {
      const row = await db.selectFrom('promo_redemptions').select('uses')
        .where('instance_id', '=', instanceId).where('code', '=', code).executeTakeFirst()
      return row?.uses ?? 0
    },

    /**
     * Counts one use if the cap allows it, in one conditional statement: concurrent
     * redemptions queue on the code's row and each sees the count the one before it left.
     */
    *redeem(instanceId: string, code: string, maxUses: number | null): Plan<boolean> {
      const upsert = `insert into promo_redemptions (instance_id, code, uses) values (?, ?, 1)
         on conflict (instance_id, code) do update set uses = promo_redemptions.uses + 1`
      const { rows } = maxUses === null
        ? yield* statement(`${upsert} returning uses`, [instanceId, code])
        : yield* statement(`${upsert} where promo_redemptions.uses < ? returning uses`, [instanceId, code, maxUses])
      return rows.length === 1 && (maxUses === null || Number(rows[0].uses) <= maxUses)
    },

    *release(instanceId: string, code: string): Plan<void> {
      yield* statement('update promo_redemptions set uses = uses - 1 where instance_id = ? and code = ? and uses > 0', [instanceId, code])
    },
  }
}
