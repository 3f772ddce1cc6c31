import { Type } from 'typebox'

/** Optional codes every form accepts. */
export const MarketingFields = {
  promo_code: Type.Optional(Type.String({ maxLength: 64 })),
  referral_code: Type.Optional(Type.String({ maxLength: 64 })),
}

export const DECOY_FIELD_NAMES = ['company', 'fax', 'middle_name', 'nickname', 'website'] as const

/**
 * The spam decoys every form accepts, described as what they are: a reseller that reads
 * openapi.json must know never to send its company name or website here, or its real
 * bookings are quietly quarantined. `consequence` says what the form does with a submission
 * that fills one. Which of the five count is set per instance (all of them by default).
 */
export function decoyFields(consequence: string) {
  const field = () => Type.Optional(Type.String({
    maxLength: 200,
    description: 'Decoy: never fill this field. People never do (the booking page hides it from them), only bots. A submission '
      + `that fills it (anything but blanks) is treated as spam and answered exactly as if it were real, but ${consequence}. `
      + `Which of ${DECOY_FIELD_NAMES.join(', ')} are decoys is set per instance (all five unless the operator says otherwise), so `
      + 'send a company, website or nickname in none of them.',
  }))
  return Object.fromEntries(DECOY_FIELD_NAMES.map((name) => [name, field()])) as Record<(typeof DECOY_FIELD_NAMES)[number], ReturnType<typeof field>>
}
