import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { ApiClient } from './client.ts'
import { contractFor } from './contract.ts'
import { freshDatabase, type FreshDatabase } from './database.ts'
import { startServer, type ServerProcess } from './server-process.ts'

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

export interface BookingPageSuiteOptions {
  /** The catalog the server reads (TOURDESK_CONFIG), written to a file of its own; the bundled demo unless given. */
  catalog?: () => unknown
  /** More environment for the server process. */
  env?: Record<string, string>
}

/** What the booking page's browser tests start: the server as `npm start` runs it, and Chromium. */
export interface BookingPageSuite {
  readonly server: ServerProcess
  readonly browser: Browser
}

/**
 * Starts the server on a fresh database (with `options`) and Chromium in the calling describe
 * block's before(), and stops them and removes what it made in its after(). Call it directly in
 * the block; read the started things from the answer inside tests.
 */
export function bookingPageSuite(options: BookingPageSuiteOptions = {}): BookingPageSuite {
  let server: ServerProcess
  let database: FreshDatabase
  let browser: Browser
  let catalogDir: string | undefined

  before(async () => {
    const env: Record<string, string> = { ...options.env }
    if (options.catalog) {
      catalogDir = mkdtempSync(join(tmpdir(), 'tourdesk-page-'))
      env.TOURDESK_CONFIG = join(catalogDir, 'catalog.json')
      writeFileSync(env.TOURDESK_CONFIG, JSON.stringify(options.catalog()))
    }
    database = await freshDatabase()
    server = await startServer({ DATABASE_URL: database.url, ...env })
    browser = await launchBrowser()
  })
  after(async () => {
    await browser?.close()
    await server?.stop()
    await database?.drop()
    if (catalogDir) rmSync(catalogDir, { recursive: true, force: true })
  })

  return {
    get server() { return server },
    get browser() { return browser },
  }
}
