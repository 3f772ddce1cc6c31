import { ERROR_CODES, type ErrorCode } from './codes.ts'

export interface FieldError {
  field: string
  message: string
}

/** The one error type handlers and services throw; the error handler renders it as problem+json. */
export class ApiError extends Error {
  readonly status: number
  readonly extra: Record<string, unknown>

  constructor(
    readonly code: ErrorCode,
    detail: string,
    extra: {
      errors?: FieldError[], remaining?: number, min?: number, max?: number, headers?: Record<string, string>
      /** invalid_transition: the booking's status now. */
      booking_status?: string
      /** capacity_below_booked: the seats already taken. */
      seats_taken?: number
      /** precondition_failed: the current version. */
      version?: number
    } = {},
  ) {
    super(detail)
    this.status = ERROR_CODES[code].status
    this.extra = extra
  }
}
