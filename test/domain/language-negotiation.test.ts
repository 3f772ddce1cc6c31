import assert from 'node:assert/strict'
import { test } from 'node:test'
import { negotiateLanguage, parseAcceptLanguage } from '../../src/domain/language-negotiation.ts'

const LISBON = ['en', 'pt', 'es']

test('Accept-Language and lang choose among the instance\'s languages, as a table of requests and answers', () => {
  const table: Array<[{ lang?: string, acceptLanguage?: string }, string]> = [
    [{}, 'en'],
    [{ acceptLanguage: 'pt' }, 'pt'],
    [{ acceptLanguage: 'pt-PT' }, 'pt'],
    [{ acceptLanguage: 'PT-pt,en;q=0.5' }, 'pt'],
    [{ acceptLanguage: 'fr, es;q=0.8, en;q=0.7' }, 'es'],
    [{ acceptLanguage: 'en;q=0.4, pt;q=0.9' }, 'pt'],
    [{ acceptLanguage: 'de' }, 'en'],
    [{ acceptLanguage: '*' }, 'en'],
    [{ acceptLanguage: 'de, *;q=0.5' }, 'en'],
    [{ acceptLanguage: '*, en;q=0' }, 'pt'],
    [{ acceptLanguage: 'pt;q=0, es' }, 'es'],
    [{ acceptLanguage: 'pt;q=0' }, 'en'],
    [{ acceptLanguage: 'es , , pt' }, 'es'],
    [{ acceptLanguage: 'pt;q=abc' }, 'en'],
    [{ acceptLanguage: 'pt;q=1.5' }, 'en'],
    [{ acceptLanguage: '!!!' }, 'en'],
    [{ acceptLanguage: `pt,${'x'.repeat(2000)}` }, 'en'],
    [{ acceptLanguage: '' }, 'en'],
    [{ lang: 'es', acceptLanguage: 'pt' }, 'es'],
    [{ lang: 'pt-BR', acceptLanguage: 'es' }, 'pt'],
    [{ lang: 'fr', acceptLanguage: 'es' }, 'es'],
    [{ lang: 'fr' }, 'en'],
  ]
  for (const [request, expected] of table) assert.equal(negotiateLanguage(LISBON, request), expected, JSON.stringify(request))
})

test('a more precise offered tag is found by its language; a single-language instance always answers its one', () => {
  assert.equal(negotiateLanguage(['en', 'pt-BR'], { acceptLanguage: 'pt' }), 'pt-BR')
  assert.equal(negotiateLanguage(['en', 'pt-BR'], { acceptLanguage: 'pt-PT' }), 'pt-BR')
  assert.equal(negotiateLanguage(['en', 'pt-BR', 'pt'], { acceptLanguage: 'pt-PT' }), 'pt')
  assert.equal(negotiateLanguage(['en'], { lang: 'pt', acceptLanguage: 'pt' }), 'en')
})

test('parseAcceptLanguage orders by q, keeping the order of equal weights; a malformed value is null', () => {
  assert.deepEqual(parseAcceptLanguage('fr;q=0.5, pt, es;q=0.5, *;q=0.1'), [
    { range: 'pt', q: 1 }, { range: 'fr', q: 0.5 }, { range: 'es', q: 0.5 }, { range: '*', q: 0.1 },
  ])
  assert.equal(parseAcceptLanguage('pt;level=1'), null)
  assert.equal(parseAcceptLanguage('pt;q=0.1234'), null)
})
