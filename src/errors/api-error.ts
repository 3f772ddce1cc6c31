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
    extra: { errors?: FieldError[], remaining?: number, min?: number, max?: number, headers?: Record<string, string> } = {},
  ) {
    super(detail)
    this.status = ERROR_CODES[code].status
    this.extra = extra
  }
}
