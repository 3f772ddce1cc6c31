import type { Generated } from 'kysely'

/** The operator side: staff and their sessions, API keys, the audit log, the catalog. */
export interface OperatorTables {
  staff: {
    instance_id: string
    id: string
    email: string
    name: string
    role: string
    password_hash: string | null
    disabled: number
    created_at: string
    updated_at: string
  }
  staff_sessions: {
    instance_id: string
    id: string
    staff_id: string
    created_at: string
    last_seen_at: string
    expires_at: string
  }
  staff_setup_tokens: {
    instance_id: string
    token_hash: string
    staff_id: string
    expires_at: string
    used_at: string | null
  }
  sign_in_counts: {
    instance_id: string
    email: string
    /** Attempts counted since window_started_at, the right one not yet known among them. */
    failures: number
    /** The first counted attempt of the window; once `failures` reaches the limit, the moment it did (the lock's start). */
    window_started_at: string
  }
  api_keys: {
    instance_id: string
    id: string
    name: string
    role: string
    prefix: string
    secret_hash: string
    created_at: string
    last_used_at: string | null
    revoked_at: string | null
    /** JSON array of tour ids a reseller key may sell; null: every tour (and any other role). */
    products: string | null
    /** A reseller key's commission in basis points; null for any other role. */
    commission_basis_points: number | null
  }
  audit_log: {
    instance_id: string
    id: string
    at: string
    actor_type: string
    actor_id: string | null
    actor_name: string | null
    action: string
    target_type: string
    target_id: string
    /** The target as people know it (migration 022); null in entries written before. */
    target_ref: string | null
    /** JSON of the changed fields before and after. */
    before: string | null
    after: string | null
    request_id: string | null
  }
  catalog_instances: {
    instance_id: string
    prefix: string
    name: string
    timezone: string
    currency: string
    /** JSON: the file's other instance fields. */
    settings: string
    policy_id: string
    policy_version: number
    catalog_version: number
    updated_at: string
    /** The catalog version of the last edit that deleted a tour (0: none since migration 020). */
    tours_removed_version: Generated<number>
  }
  catalog_tours: {
    instance_id: string
    id: string
    position: number
    title: string
    summary: string
    description: string
    duration_minutes: number
    meeting_point: string
    languages: string
    tags: string
    price: number
    party_min: number
    party_max: number
    capacity: number
    cutoff_minutes: number
    confirmation: string
    blackouts: string
    archived: number
    /** The catalog version that last wrote the tour: a node reloads only the tours written after its version. */
    updated_version: Generated<number>
    min_participants: number | null
    min_participants_deadline_hours: number | null
    /** JSON of the tour's units as the catalog file writes them (migration 025); null when it lists none. */
    units: string | null
    /** JSON of the tour's translations by language (migration 027); null when it has none. */
    translations: string | null
  }
  catalog_schedule_rules: {
    instance_id: string
    tour_id: string
    position: number
    valid_from: string
    valid_until: string
    weekdays: string
    times: string
  }
  catalog_addons: {
    instance_id: string
    tour_id: string
    id: string
    position: number
    name: string
    description: string
    price: number
    per: string
    max_quantity: number
  }
  catalog_promo_codes: {
    instance_id: string
    code: string
    position: number
    kind: string
    value: number
    valid_from: string
    valid_until: string
    tour_ids: string | null
    max_uses: number | null
  }
  catalog_policies: {
    instance_id: string
    id: string
    version: number
    summary: string
    tiers: string
    no_show_fee_percent: number
    /** JSON of the summary's translations by language (migration 027); null when it has none. */
    translations: string | null
    created_at: string
  }
}
