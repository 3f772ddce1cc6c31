import assert from 'node:assert/strict'

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++ } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') { record.push(field); field = '' } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i++
    } else field += c
  }
  assert.equal(field + record.join(''), '', 'the text ends with CRLF')
  return records
}
