/**
 * Every error code tourdesk answers with, its status, its title and the surface that uses it
 * (`any`: both APIs; `guest`: the booking API; `operator`: the operator API). Each API's
 * openapi.json documents the codes of its own surface.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, title: 'The HTTP request could not be parsed', surface: 'any' },
  invalid_json: { status: 400, title: 'Body is not valid JSON', surface: 'any' },
  validation_failed: { status: 400, title: 'Request failed validation', surface: 'any' },
  csrf_missing: { status: 403, title: 'X-CSRF-Token header is missing', surface: 'any' },
  csrf_invalid: { status: 403, title: 'X-CSRF-Token does not match the session', surface: 'any' },
  origin_not_allowed: { status: 403, title: 'Origin is not allowed', surface: 'any' },
  reseller_key_refused: { status: 403, title: 'A reseller key works only on the OCTo API', surface: 'any' },
  not_found: { status: 404, title: 'No such resource', surface: 'any' },
  tour_not_found: { status: 404, title: 'No such tour', surface: 'any' },
  no_booking: { status: 404, title: 'The session has no such booking', surface: 'any' },
  method_not_allowed: { status: 405, title: 'Method not allowed on this resource', surface: 'any' },
  request_timeout: { status: 408, title: 'The request took too long to arrive', surface: 'any' },
  insufficient_capacity: { status: 409, title: 'Not enough seats left', surface: 'any' },
  cancellation_not_allowed: { status: 409, title: 'The booking can no longer be cancelled', surface: 'any' },
  idempotency_in_flight: { status: 409, title: 'A request with this Idempotency-Key is still being processed', surface: 'any' },
  hold_expired: { status: 410, title: 'The hold has expired', surface: 'any' },
  idempotent_answer_erased: { status: 410, title: 'This Idempotency-Key was answered, and the answer erased with the personal data it held', surface: 'any' },
  payload_too_large: { status: 413, title: 'Body is too large', surface: 'any' },
  unsupported_media_type: { status: 415, title: 'Content-Type must be application/json', surface: 'any' },
  expectation_failed: { status: 417, title: 'The Expect header names an expectation this server cannot meet', surface: 'any' },
  slot_not_found: { status: 422, title: 'No departure starts at that time', surface: 'any' },
  cutoff_passed: { status: 422, title: 'Booking for this departure has closed', surface: 'any' },
  party_out_of_range: { status: 422, title: 'Party size is outside what the tour allows', surface: 'any' },
  party_mismatch: { status: 422, title: 'party is not the number of people the units count', surface: 'any' },
  invalid_unit: { status: 422, title: 'The tour has no such unit', surface: 'any' },
  unit_not_allowed: { status: 422, title: 'A unit is booked outside its quantity bounds or without a unit it must come with', surface: 'any' },
  language_not_offered: { status: 422, title: 'The tour is not guided in that language', surface: 'any' },
  invalid_addon: { status: 422, title: 'Unknown add-on or quantity too high', surface: 'any' },
  invalid_promo_code: { status: 422, title: 'Promo code is not valid for this booking', surface: 'any' },
  date_out_of_range: { status: 422, title: 'Date is outside the bookable horizon', surface: 'any' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key was used with a different request', surface: 'any' },
  rate_limited: { status: 429, title: 'Too many requests', surface: 'any' },
  headers_too_large: { status: 431, title: 'Request headers are too large', surface: 'any' },
  unauthenticated: { status: 401, title: 'No valid staff session or API key', surface: 'operator' },
  invalid_credentials: { status: 401, title: 'The email or password is not right', surface: 'operator' },
  forbidden: { status: 403, title: 'Your role does not allow this', surface: 'operator' },
  invalid_transition: { status: 409, title: 'The action does not apply to the booking in its current status', surface: 'operator' },
  capacity_below_booked: { status: 409, title: 'The capacity would be below the seats already taken', surface: 'operator' },
  last_manager: { status: 409, title: 'The last active manager cannot be removed, disabled or demoted', surface: 'operator' },
  staff_exists: { status: 409, title: 'An account with this email already exists', surface: 'operator' },
  invalid_setup_token: { status: 410, title: 'The setup link is unknown, used or expired', surface: 'operator' },
  staff_disabled: { status: 409, title: 'The staff account is disabled', surface: 'operator' },
  email_not_set_up: { status: 409, title: 'This service sends no email (SMTP_URL is unset)', surface: 'operator' },
  departure_not_found: { status: 404, title: 'No departure starts at that time: neither scheduled, added nor on record', surface: 'operator' },
  departure_exists: { status: 409, title: 'A departure already starts at that time', surface: 'operator' },
  departure_cancelled: { status: 409, title: 'The departure is cancelled and cannot be reopened', surface: 'operator' },
  precondition_failed: { status: 412, title: 'If-Match names a version that is no longer current', surface: 'operator' },
  departure_ended: { status: 409, title: 'The departure has already ended', surface: 'operator' },
  catalog_invalid: { status: 422, title: 'The catalog breaks a catalog rule', surface: 'operator' },
  catalog_frozen: { status: 409, title: 'Time zone and currency cannot change once the instance has bookings', surface: 'operator' },
  tour_exists: { status: 409, title: 'A tour with this id already exists', surface: 'operator' },
  promo_code_exists: { status: 409, title: 'A promo code with this code already exists', surface: 'operator' },
  departure_not_started: { status: 409, title: 'The departure has not started yet', surface: 'operator' },
  departure_not_today: { status: 409, title: 'Check-in opens on the departure\'s day, in the operator\'s time zone', surface: 'operator' },
  too_many_streams: { status: 429, title: 'Too many event streams are open, on this node or with this credential', surface: 'operator' },
  units_required: { status: 422, title: 'The booking has units other than the first: a change of party must say its units', surface: 'operator' },
  webhook_url_refused: { status: 422, title: 'Webhooks cannot be sent to this URL', surface: 'operator' },
  internal: { status: 500, title: 'Internal error', surface: 'any' },
  unavailable: { status: 503, title: 'Service temporarily unavailable', surface: 'any' },
} as const satisfies Record<string, { status: number, title: string, surface: 'any' | 'guest' | 'operator' }>

export type ErrorCode = keyof typeof ERROR_CODES
type CodesOf<S extends string> = { [C in ErrorCode]: typeof ERROR_CODES[C]['surface'] extends S ? C : never }[ErrorCode]
/** The codes the guest API answers with. */
export type GuestErrorCode = CodesOf<'any' | 'guest'>
export const codesOfSurface = (surface: 'guest' | 'operator'): ErrorCode[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].surface === 'any' || ERROR_CODES[code].surface === surface)
