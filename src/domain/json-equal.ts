/**
 * Whether two JSON values say the same, as their JSON texts would once object keys are
 * sorted (a key whose value is undefined counts as absent), without writing either text:
 * comparing two versions of a catalog of thousands of tours this way allocates nothing.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null)) return false
    return true
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  let defined = 0
  for (const key in left) {
    if (left[key] === undefined) continue
    defined++
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false
  }
  for (const key in right) if (right[key] !== undefined) defined--
  return defined === 0
}

/** JSON with object keys sorted, so two values that mean the same compare equal whatever order their fields came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v)
}
