import { randomInt } from 'node:crypto'

/** No 0/O, 1/I/L or 5/S: a code read aloud over the phone or from a screen stays unambiguous. */
const ALPHABET = 'ABCDEFGHJKMNPQRTUVWXYZ2346789'
const LENGTH = 6

export function newBookingCode(): string {
  let code = ''
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)]
  return code
}
