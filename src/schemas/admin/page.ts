import { Type } from 'typebox'

/** The query parameters of every operator list (docs/operator-api.md, "Conventions"): spread them into the list's query schema. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Items per page, 1 to 200 (default 50)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: "The previous page's next_cursor; omit for the first page" })),
}
