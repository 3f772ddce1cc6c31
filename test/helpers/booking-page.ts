import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { ApiClient } from './client.ts'
import { contractFor } from './contract.ts'

// The callbacks given to page.evaluate run in the browser; these names exist there, not in Node.
declare const document: any
declare const navigator: any

export function bookingPageUrl(origin: string, prefix: string, tourId?: string): string {
  return `${origin}/book/${prefix}/${tourId ? `?tour=${encodeURIComponent(tourId)}` : ''}`
}

/** An API client for checking what the page did, with every answer checked against openapi.json. */
export async function apiClient(origin: string, prefix: string): Promise<ApiClient> {
  const document = await (await fetch(`${origin}/api/${prefix}/openapi.json`)).json() as Record<string, any>
  return new ApiClient(origin, prefix, contractFor(document))
}

/** The session the page's browser holds in its `sid` cookie, as headers for the API. */
export async function guestSession(page: Page): Promise<Record<string, string>> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sid')
  assert.ok(cookie, 'the page got a session cookie')
  return { 'x-session': cookie.value }
}

/** Waits until a tour's times are listed and chooses the first one that can be booked; returns its start. */
export async function chooseFirstOpenTime(page: Page): Promise<string> {
  const open = page.locator('input[name="start"]:not([disabled])').first()
  await open.waitFor({ state: 'attached' })
  await open.check()
  return (await open.getAttribute('value'))!
}

/** Presses the hold button and waits for the held booking to be shown. */
export async function holdSeats(page: Page): Promise<void> {
  await page.click('#hold-button')
  await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
  await page.locator('.countdown').filter({ hasText: /Held for \d+:\d\d more/ }).waitFor()
}

/**
 * Minor units formatted by the browser's own Intl as the page writes money: in the browser's
 * variant of the page's language (`pt-PT` for a Portuguese page in a pt-PT browser), else in
 * the language itself (English for a pt-PT guest who switched to English).
 */
export function guestMoney(page: Page, minor: number, currency: string): Promise<string> {
  return page.evaluate(([amount, code]) => {
    const language = document.documentElement.lang as string
    const locale = (navigator.languages as string[]).find((tag) => tag.toLowerCase().split('-')[0] === language) ?? language
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code as string }).format((amount as number) / 100)
  }, [minor, currency])
}

/** True when nothing sticks out sideways: the page needs no horizontal scrolling. */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)
}
