import { Type, type Static } from 'typebox'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'

export const Role = named('Role', Type.Union([Type.Literal('guide'), Type.Literal('viewer'), Type.Literal('staff'), Type.Literal('manager')], {
  description: 'guide, viewer, staff or manager (docs/operator-api.md, "Roles")',
}))
export type RoleName = Static<typeof Role>

export const Email = Type.String({ format: 'email', maxLength: 254 })

export const SignInRequest = named('SignInRequest', Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 1024 }),
}, { additionalProperties: false }))

export const StaffUser = named('StaffUser', Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
}))

export const StaffSignedIn = named('StaffSignedIn', Type.Object({
  user: StaffUser,
  csrf_token: Type.String({ description: 'Send as X-CSRF-Token with every write under this session' }),
  expires_at: Instant,
}))

export const SetupRequest = named('SetupRequest', Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token after # in the setup link' }),
  password: Type.String({ minLength: 12, maxLength: 1024 }),
}, { additionalProperties: false }))

export const Me = named('Me', Type.Object({
  kind: Type.Union([Type.Literal('staff'), Type.Literal('key')]),
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  role: Role,
  permissions: Type.Array(Type.String()),
  instance: Type.Object({ prefix: Type.String(), ref: Type.String(), name: Type.String(), timezone: Type.String(), currency: Type.String() }),
  email_enabled: Type.Boolean({ description: 'Whether this service sends email (SMTP_URL is set); without it every message is kept as not_sent and nobody is told by email' }),
}))

export const StaffAccount = named('StaffAccount', Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  disabled: Type.Boolean(),
  set_up: Type.Boolean({ description: 'false until the setup link has been used' }),
  created_at: Instant,
  updated_at: Instant,
}))
export type StaffAccount = Static<typeof StaffAccount>

export const StaffList = named('StaffList', Type.Object({ staff: Type.Array(StaffAccount), next_cursor: Nullable(Type.String()) }))

export const NewStaffRequest = named('NewStaffRequest', Type.Object({
  email: Email,
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  role: Role,
}, { additionalProperties: false }))

export const NewStaffAnswer = named('NewStaffAnswer', Type.Object({
  staff: StaffAccount,
  setup_link: Type.String({ description: 'One-time link (valid 24 hours) where the person sets a password' }),
}))

export const StaffSetupLink = named('StaffSetupLink', Type.Object({
  staff: StaffAccount,
  setup_link: Type.String({ description: 'One-time link (valid 24 hours) where the person chooses a new password; earlier unused links of the account stop working' }),
}))

export const PasswordResetRequest = named('PasswordResetRequest', Type.Object({
  email: Email,
}, { additionalProperties: false }))

export const PasswordResetAnswer = named('PasswordResetAnswer', Type.Object({
  detail: Type.String({ description: 'The same sentence whether or not the address has an account' }),
}))

export const StaffChange = named('StaffChange', Type.Object({
  role: Type.Optional(Role),
  disabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false, minProperties: 1 }))

export const KeyRole = named('KeyRole', Type.Union([Role, Type.Literal('reseller')], {
  description: 'A staff role (guide, viewer, staff, manager) for the operator API, or reseller: the key works only on the OCTo API at /octo/<prefix> (docs/resellers.md)',
}))

const ResellerProducts = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1, maxItems: 500, description: 'Tour ids a reseller key may sell; left out: every tour, tours added later included',
})
const CommissionPercent = Type.Number({
  minimum: 0, maximum: 100, description: "The reseller's commission, 0 to 100 with at most two decimals: OCTo's net price is the retail price less it, rounded half up to a minor unit",
})

export const ApiKey = named('ApiKey', Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: KeyRole,
  products: Type.Optional(Nullable(Type.Array(Type.String(), { description: 'A reseller key only: the tour ids it may sell; null: every tour, later ones included' }))),
  commission_percent: Type.Optional(Type.Number({ description: "A reseller key only: the reseller's commission percent" })),
  prefix: Type.String({ description: 'The first 8 characters of the secret' }),
  created_at: Instant,
  last_used_at: Nullable(Instant),
  revoked_at: Nullable(Instant),
}))

export const ApiKeyList = named('ApiKeyList', Type.Object({ api_keys: Type.Array(ApiKey), next_cursor: Nullable(Type.String()) }))

export const NewApiKeyRequest = named('NewApiKeyRequest', Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  role: KeyRole,
  products: Type.Optional(ResellerProducts),
  commission_percent: Type.Optional(CommissionPercent),
}, { additionalProperties: false }))

export const NewApiKeyAnswer = named('NewApiKeyAnswer', Type.Object({
  api_key: ApiKey,
  secret: Type.String({ description: 'Shown this once: send as Authorization: Bearer <secret>' }),
}))

export const StaffIdParams = Type.Object({ instance: Type.String(), id: Type.String({ minLength: 1, maxLength: 64 }) })
