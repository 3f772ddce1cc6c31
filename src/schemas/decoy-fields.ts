import { Type } from 'typebox'

/**
 * Optional text fields every form accepts. `company` … `website` are the default decoys
 * (hidden from people on the booking page); which of them count as decoys is per instance.
 */
export const MarketingFields = {
  promo_code: Type.Optional(Type.String({ maxLength: 64 })),
  referral_code: Type.Optional(Type.String({ maxLength: 64 })),
  company: Type.Optional(Type.String({ maxLength: 200 })),
  fax: Type.Optional(Type.String({ maxLength: 200 })),
  middle_name: Type.Optional(Type.String({ maxLength: 200 })),
  nickname: Type.Optional(Type.String({ maxLength: 200 })),
  website: Type.Optional(Type.String({ maxLength: 200 })),
}

export const DECOY_FIELD_NAMES = ['company', 'fax', 'middle_name', 'nickname', 'website'] as const
