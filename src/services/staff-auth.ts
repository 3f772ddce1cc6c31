import { createHmac, hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { resellerTermsOf } from '../domain/reseller-terms.ts'
import { isRole, RESELLER_ROLE, roleMay, type KeyRole, type Role } from '../domain/roles.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Actor } from '../store/audit.ts'
import { newRowId } from '../store/row-id.ts'
import type { ApiKeyRow, StaffRow, StaffSessionRow } from '../store/staff.ts'
import type { Store } from '../store/store.ts'
import { keyLastUse, sessionLastSeen } from './last-use.ts'

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number, r: number, p: number, maxmem: number }) => Promise<Buffer>

/** scrypt at N = 2^15 takes about 50 ms here: slow for a guesser, unnoticed by a person signing in. */
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEY_LENGTH = 32
export const MIN_PASSWORD_LENGTH = 12
export const STAFF_SESSION_HOURS = 12
export const STAFF_IDLE_MINUTES = 120
export const SETUP_LINK_HOURS = 24
export const LOCKOUT = { failures: 5, minutes: 15 }
export const STAFF_COOKIE = 'td_staff'
export const API_KEY_PATTERN = /^tdk_[A-Za-z0-9]{32,}$/

// One-shot hash: half the cost of createHash().update().digest(), and every request with a key or staff session pays it.
export const sha256 = (text: string) => hash('sha256', text, 'base64url')

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, KEY_LENGTH, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !key) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem })
  return timingSafeEqual(actual, expected)
}

/** Checked against when the email is unknown or has no password yet, so every refusal costs one scrypt. */
let decoyHash: Promise<string> | null = null

export interface StaffIdentity {
  kind: 'staff' | 'key'
  id: string
  name: string
  role: Role
  email: string | null
  /** The staff session's id (staff only), for CSRF and sign-out. */
  sessionId: string | null
}

export const actorOf = (identity: StaffIdentity): Actor => ({ type: identity.kind, id: identity.id, name: identity.name })

export interface SignedIn {
  user: { id: string, email: string, name: string, role: Role }
  token: string
  csrfToken: string
  expiresAt: Temporal.Instant
}

export function staffCsrfToken(secret: string, instanceRef: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`staff:${instanceRef}:${sessionId}`).digest('base64url')
}

export function staffCsrfTokenMatches(secret: string, instanceRef: string, sessionId: string, token: string): boolean {
  const expected = Buffer.from(staffCsrfToken(secret, instanceRef, sessionId))
  const given = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

function newApiKeySecret(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = randomBytes(40)
  let secret = 'tdk_'
  // 248 is the largest multiple of 62 below 256: rejecting above it keeps every letter equally likely.
  for (const byte of bytes) if (byte < 248) secret += alphabet[byte % 62]
  return secret.length >= 36 ? secret : newApiKeySecret()
}

export interface NewKey {
  name: string
  role: KeyRole
  products?: readonly string[]
  commission_percent?: number
}

export interface NewStaff {
  email: string
  name: string
  role: Role
  /** Set at once (CLI --password-stdin); without it the answer carries a one-time setup token. */
  password?: string
}

/** The staff member of a session found unexpired, unless it has gone idle or the account is disabled. */
function liveSession(found: { session: StaffSessionRow, staff: StaffRow } | undefined, now: Temporal.Instant): StaffIdentity | null {
  const role = found?.staff.role
  if (!found || found.staff.disabled === 1 || !isRole(role)) return null
  if (now.epochMilliseconds - Date.parse(found.session.last_seen_at) >= STAFF_IDLE_MINUTES * 60_000) return null
  const { staff: account, session } = found
  return { kind: 'staff', id: account.id, name: account.name, role, email: account.email, sessionId: session.id }
}

/** A live key of a staff role; a reseller key is refused here (403): it works only on the OCTo API. */
function liveKey(key: ApiKeyRow | undefined): StaffIdentity | null {
  const role = key?.role
  if (!key || key.revoked_at !== null) return null
  if (role === RESELLER_ROLE) throw new ApiError('reseller_key_refused', 'A reseller key works only on the OCTo API (/octo/<prefix>)')
  if (!isRole(role)) return null
  return { kind: 'key', id: key.id, name: key.name, role, email: null, sessionId: null }
}

/**
 * Staff accounts, sign-in and API keys for one store; every change is audited in its own
 * transaction. `tourIdsOf` answers an instance's tour ids, which a reseller key's products must be.
 */
export function staffAuth(store: Store, secret: string, tourIdsOf: (instanceRef: string) => ReadonlySet<string> = () => new Set()) {
  const { staff, audit } = store
  const keyUse = keyLastUse(store)
  const sessionSeen = sessionLastSeen(store)

  return {
    /**
     * Signs a staff member in. Wrong password, unknown email, disabled account or an account
     * not yet set up all answer 401 invalid_credentials after one scrypt each; five failures
     * for one email within 15 minutes lock it (429, even with the right password).
     */
    async signIn(instanceRef: string, emailGiven: string, password: string, now: Temporal.Instant): Promise<SignedIn> {
      const email = emailGiven.trim().toLowerCase()
      const at = toStoredInstant(now)
      // Counted before the password is checked, so that no number of concurrent attempts gets
      // more than five checks; a right password then clears the count.
      const { lockedSince } = await store.write(() => staff.countSignInAttempt(instanceRef, email, at, toStoredInstant(now.subtract({ minutes: LOCKOUT.minutes })), LOCKOUT.failures))
      if (lockedSince) {
        const until = Temporal.Instant.from(lockedSince).add({ minutes: LOCKOUT.minutes })
        const seconds = Math.max(1, Math.ceil((until.epochMilliseconds - now.epochMilliseconds) / 1000))
        throw new ApiError('rate_limited', `Too many failed sign-ins for this email; try again in ${Math.ceil(seconds / 60)} minutes`, { headers: { 'Retry-After': String(seconds) } })
      }
      const account = await staff.findByEmail(instanceRef, email)
      decoyHash ??= hashPassword(randomBytes(16).toString('hex'))
      const matches = await passwordMatches(account?.password_hash ?? await decoyHash, password)
      if (!account || !account.password_hash || !matches || account.disabled === 1) {
        throw new ApiError('invalid_credentials', 'The email or password is not right')
      }
      const token = randomBytes(32).toString('base64url')
      const sessionId = sha256(token)
      const expiresAt = now.add({ hours: STAFF_SESSION_HOURS })
      await store.write(function* () {
        yield* staff.clearSignInAttempts(instanceRef, email)
        yield* staff.insertSession({ instance_id: instanceRef, id: sessionId, staff_id: account.id, created_at: at, last_seen_at: at, expires_at: toStoredInstant(expiresAt) })
      })
      return {
        user: { id: account.id, email: account.email, name: account.name, role: account.role as Role },
        token,
        csrfToken: staffCsrfToken(secret, instanceRef, sessionId),
        expiresAt,
      }
    },

    async signOut(instanceRef: string, sessionId: string): Promise<void> {
      await store.write(() => staff.deleteSession(instanceRef, sessionId))
    },

    /** The staff member a `td_staff` token belongs to, if the session is live (12 hours, 2 idle) and the account active. */
    async identifyStaff(instanceRef: string, token: string, now: Temporal.Instant): Promise<StaffIdentity | null> {
      const sessionId = sha256(token)
      const found = await staff.findSession(instanceRef, sessionId, toStoredInstant(now))
      const identity = liveSession(found, now)
      if (identity) await sessionSeen.note(instanceRef, sessionId, found!.session.last_seen_at, now)
      return identity
    },

    /** The API key a Bearer secret is, if it exists in this instance and is not revoked. */
    async identifyKey(instanceRef: string, bearer: string, now: Temporal.Instant): Promise<StaffIdentity | null> {
      if (!API_KEY_PATTERN.test(bearer)) return null
      const key = await staff.findKey(instanceRef, sha256(bearer))
      const identity = liveKey(key)
      if (identity) await keyUse.note(instanceRef, key!, now)
      return identity
    },

    /** Whether a Bearer secret is a live reseller key of this instance: such a key is refused outside the OCTo API. */
    async isResellerKey(instanceRef: string, bearer: string): Promise<boolean> {
      if (!API_KEY_PATTERN.test(bearer)) return false
      const key = await staff.findKey(instanceRef, sha256(bearer))
      return key !== undefined && key.revoked_at === null && key.role === RESELLER_ROLE
    },

    /**
     * What a credential identified earlier is now, read again from the database (so a change
     * made on any node counts): null once the session is signed out, expired or idle, the
     * account disabled, or the key revoked; else its current role. It only reads: a
     * long-lived request such as GET /stream must not keep its own session from going idle.
     */
    async recheck(instanceRef: string, identity: StaffIdentity, now: Temporal.Instant): Promise<StaffIdentity | null> {
      if (identity.kind === 'key') return liveKey(await staff.findKeyById(instanceRef, identity.id))
      const found = await staff.findSession(instanceRef, identity.sessionId!, toStoredInstant(now))
      return liveSession(found, now)
    },

    /**
     * Who acts through an operator email link sent to `recipient`, now: the staff member with
     * that address while they may change bookings (set up, not disabled, a role that may), or,
     * for an address with no account, the address itself while it is one of `operatorEmails`.
     * Null when neither: a link from an email sent before someone was disabled does nothing.
     */
    async emailLinkActor(instanceRef: string, recipient: string, operatorEmails: readonly string[]): Promise<Actor | null> {
      const member = await staff.findByEmail(instanceRef, recipient)
      if (member) {
        return member.disabled === 0 && member.password_hash !== null && isRole(member.role) && roleMay(member.role, 'bookings.change')
          ? { type: 'staff', id: member.id, name: member.name } : null
      }
      const address = recipient.trim().toLowerCase()
      return operatorEmails.some((e) => e.trim().toLowerCase() === address) ? { type: 'staff', id: null, name: `${address} (email link)` } : null
    },

    /** A new account; answers it with a one-time setup token unless a password was given. */
    async addStaff(instanceRef: string, input: NewStaff, actor: Actor, now: Temporal.Instant, requestId: string | null = null): Promise<{ staff: StaffRow, setupToken: string | null }> {
      const email = input.email.trim().toLowerCase()
      if (await staff.findByEmail(instanceRef, email)) {
        throw new ApiError('staff_exists', `${email} already has an account here`, { errors: [{ field: 'email', message: 'already has an account' }] })
      }
      if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
        throw new ApiError('validation_failed', `A password has at least ${MIN_PASSWORD_LENGTH} characters`, { errors: [{ field: 'password', message: `must have at least ${MIN_PASSWORD_LENGTH} characters` }] })
      }
      const at = toStoredInstant(now)
      const row: StaffRow = {
        instance_id: instanceRef, id: newRowId(), email, name: input.name.trim(), role: input.role,
        password_hash: input.password === undefined ? null : await hashPassword(input.password), disabled: 0, created_at: at, updated_at: at,
      }
      const setupToken = input.password === undefined ? randomBytes(32).toString('base64url') : null
      await store.write(function* () {
        yield* staff.insert(row)
        if (setupToken) {
          yield* staff.insertSetupToken({ instance_id: instanceRef, token_hash: sha256(setupToken), staff_id: row.id, expires_at: toStoredInstant(now.add({ hours: SETUP_LINK_HOURS })), used_at: null })
        }
        yield* audit.record({ instanceId: instanceRef, at, actor, action: 'staff.added', target: { type: 'staff', id: row.id, ref: row.email }, after: { email, name: row.name, role: row.role }, requestId })
      })
      return { staff: row, setupToken }
    },

    /** Sets the password of the account a live setup token was made for; the token then no longer works. */
    async completeSetup(instanceRef: string, token: string, password: string, now: Temporal.Instant): Promise<StaffRow> {
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw new ApiError('validation_failed', `A password has at least ${MIN_PASSWORD_LENGTH} characters`, { errors: [{ field: 'password', message: `must have at least ${MIN_PASSWORD_LENGTH} characters` }] })
      }
      const hash = await hashPassword(password)
      const at = toStoredInstant(now)
      const account = await store.write(function* () {
        const staffId = yield* staff.useSetupToken(instanceRef, sha256(token), at)
        if (!staffId) return undefined
        const updated = yield* staff.update(instanceRef, staffId, { password_hash: hash, updated_at: at })
        yield* staff.deleteSessionsOf(instanceRef, staffId)
        // Whoever used the link holds the mailbox or was given it by a manager: a lockout that
        // failed guesses of the old password started must not keep them out of the new one.
        if (updated) yield* staff.clearSignInAttempts(instanceRef, updated.email)
        yield* audit.record({ instanceId: instanceRef, at, actor: { type: 'staff', id: staffId, name: updated?.name ?? null }, action: 'staff.password_set', target: { type: 'staff', id: staffId, ref: updated?.email ?? null } })
        return updated
      })
      if (!account) throw new ApiError('invalid_setup_token', 'This setup link is unknown, used or expired; ask a manager for a new one')
      return account
    },

    /**
     * Changes an account's role or disabled flag. The last active manager cannot be
     * demoted or disabled (409 last_manager); a disabled account's sessions end at once.
     */
    async updateStaff(instanceRef: string, id: string, changes: { role?: Role, disabled?: boolean }, actor: Actor, now: Temporal.Instant, requestId: string | null = null): Promise<StaffRow> {
      const at = toStoredInstant(now)
      const updated = await store.write(function* () {
        yield* staff.lockStaffTable(instanceRef)
        const before = yield* staff.update(instanceRef, id, { updated_at: at })
        if (!before) return undefined
        const losesManager = before.role === 'manager' && before.disabled === 0
          && ((changes.role !== undefined && changes.role !== 'manager') || changes.disabled === true)
        if (losesManager && (yield* staff.otherActiveManagers(instanceRef, id)) === 0) {
          throw new ApiError('last_manager', 'This is the last active manager; make another manager first')
        }
        const after = yield* staff.update(instanceRef, id, {
          ...changes.role !== undefined ? { role: changes.role } : {},
          ...changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {},
        })
        if (changes.disabled === true) yield* staff.deleteSessionsOf(instanceRef, id)
        yield* audit.record({
          instanceId: instanceRef, at, actor, action: 'staff.changed', target: { type: 'staff', id, ref: before.email },
          before: { role: before.role, disabled: before.disabled === 1 }, after: { role: after!.role, disabled: after!.disabled === 1 }, requestId,
        })
        return after
      })
      if (!updated) throw new ApiError('not_found', 'No staff account has this id')
      return updated
    },

    /** A new key; a reseller key with its products (tours of the instance) and commission (src/domain/reseller-terms.ts). */
    async createKey(instanceRef: string, input: NewKey, actor: Actor, now: Temporal.Instant, requestId: string | null = null): Promise<{ key: ApiKeyRow, secret: string }> {
      const terms = resellerTermsOf(input, tourIdsOf(instanceRef))
      const secret = newApiKeySecret()
      const at = toStoredInstant(now)
      const key: ApiKeyRow = {
        instance_id: instanceRef, id: newRowId(), name: input.name.trim(), role: input.role, prefix: secret.slice(0, 8),
        secret_hash: sha256(secret), created_at: at, last_used_at: null, revoked_at: null,
        products: terms?.products ? JSON.stringify(terms.products) : null, commission_basis_points: terms?.commissionBasisPoints ?? null,
      }
      await store.write(function* () {
        yield* staff.insertKey(key)
        yield* audit.record({ instanceId: instanceRef, at, actor, action: 'api_key.created', target: { type: 'api_key', id: key.id, ref: key.name }, after: { name: key.name, role: key.role, prefix: key.prefix, ...terms ? { products: terms.products, commission_basis_points: terms.commissionBasisPoints } : {} }, requestId })
      })
      return { key, secret }
    },

    async revokeKey(instanceRef: string, id: string, actor: Actor, now: Temporal.Instant, requestId: string | null = null): Promise<ApiKeyRow> {
      const at = toStoredInstant(now)
      const revoked = await store.write(function* () {
        const key = yield* staff.revokeKey(instanceRef, id, at)
        if (key) yield* audit.record({ instanceId: instanceRef, at, actor, action: 'api_key.revoked', target: { type: 'api_key', id, ref: key.name }, before: { revoked_at: null }, after: { revoked_at: at }, requestId })
        return key
      })
      if (!revoked) throw new ApiError('not_found', 'No live API key has this id')
      return revoked
    },
  }
}
export type StaffAuth = ReturnType<typeof staffAuth>

