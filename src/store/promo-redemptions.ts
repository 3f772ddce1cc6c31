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
      // `within`: the count is no more than the cap (a first use inserts the row, which the
      // update's condition does not cover).
      const redeemed = `insert into promo_redemptions (instance_id, code, uses) values (?, ?, 1)
         on conflict (instance_id, code) do update set uses = promo_redemptions.uses + 1`
        + (maxUses === null ? ' returning 1 as within' : ' where promo_redemptions.uses < ? returning uses <= ? as within')
      const params = maxUses === null ? [instanceId, code] : [instanceId, code, maxUses, maxUses]
      // Foreseen (PostgreSQL): one use within the cap; a code used up is found when the plan runs again.
      const { rows } = yield* statement<{ within: unknown }>(redeemed, params, {
        outcome: { rows: [{ within: true }], changes: 1 },
        sql: `with changed as (${redeemed}) select tourdesk_expect(count(*) = 1 and bool_and(within::boolean)) from changed`,
      })
      return rows.length === 1 && Boolean(rows[0].within)
    },

    *release(instanceId: string, code: string): Plan<void> {
      yield* statement('update promo_redemptions set uses = uses - 1 where instance_id = ? and code = ? and uses > 0', [instanceId, code])
    },
  }
}
