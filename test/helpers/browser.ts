import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'

/** Debian's Chromium (`apt-get install chromium`); playwright-core drives it, no downloaded browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium'
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

// The callbacks given to page.evaluate run in the browser; these names exist there, not in Node.
declare const document: any
declare const localStorage: any
declare function getComputedStyle(element: unknown): { outlineStyle: string, outlineWidth: string }

const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/browser/', import.meta.url))
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * Why the browser tests cannot run here, or false when they can. Without Chromium they are
 * skipped on a developer's machine; under CI=true the tests run and fail in launchBrowser.
 */
export function browserSkipReason(): string | false {
  if (existsSync(CHROMIUM_PATH) || process.env.CI === 'true') return false
  return `SKIPPED: ${CHROMIUM_PATH} is missing; install Debian's chromium package to run the browser tests`
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`CI=true but ${CHROMIUM_PATH} is missing: the browser tests need Debian's chromium package (.ci/run installs it)`)
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

export interface GuestPage {
  page: Page
  /** Page errors and Content-Security-Policy refusals seen so far; a test ends by checking it is empty. */
  faults: string[]
  /**
   * Every console error so far but Chromium's line for an answer of 4xx (a refusal the page
   * shows its user, which a test may provoke on purpose): a test ends by checking it is empty.
   * An answer of 5xx stays here.
   */
  consoleErrors: string[]
  /** Chromium's console lines for answers of 4xx, kept apart from the errors. */
  refusals: string[]
  close(): Promise<void>
}

/**
 * A fresh browser profile (no cookies) with one page, recording script errors and CSP refusals.
 * `pageLanguage` is a language the guest chose with the booking page's switch on an earlier
 * visit (remembered in localStorage), whatever `locale` the browser speaks.
 */
export async function openGuestPage(browser: Browser, options: BrowserContextOptions & { pageLanguage?: string } = {}): Promise<GuestPage> {
  const { pageLanguage, ...contextOptions } = options
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Lisbon', ...contextOptions })
  if (pageLanguage) {
    await context.addInitScript((language) => {
      if (!localStorage.getItem('tourdesk.page-language')) localStorage.setItem('tourdesk.page-language', language)
    }, pageLanguage)
  }
  const page = await context.newPage()
  const faults: string[] = []
  const consoleErrors: string[] = []
  const refusals: string[] = []
  page.on('pageerror', (err) => faults.push(`page error: ${err.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const line = `${message.text()} (${message.location().url})`
    if (/^Failed to load resource: the server responded with a status of 4\d\d\b/.test(message.text())) refusals.push(line)
    else consoleErrors.push(line)
    if (/Content Security Policy/i.test(message.text())) faults.push(`CSP: ${message.text()}`)
  })
  return { page, faults, consoleErrors, refusals, close: () => context.close() }
}

/**
 * Runs axe-core in the page and fails on any serious or critical violation. axe is
 * evaluated through the DevTools protocol, which the page's CSP (no inline scripts) does not
 * govern, so the page is checked exactly as guests get it.
 */
export async function assertAccessible(page: Page, step: string): Promise<void> {
  if (!await page.evaluate('typeof window.axe === "object"')) await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })
    return (result.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`)
  })
  assert.deepEqual(violations, [], `accessibility violations at step "${step}"`)
}

/** A full-page screenshot under test-output/browser/ (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true })
  await page.screenshot({ path: `${OUTPUT_DIR}${name}.png`, fullPage: true })
}

export interface FocusedElement {
  id: string
  name: string
  tag: string
  text: string
  /** The focus ring is drawn (on the element, or on the label a chip's hidden radio covers). */
  ringVisible: boolean
  decoy: boolean
}

/** What has keyboard focus now. */
export function focused(page: Page): Promise<FocusedElement> {
  return page.evaluate(() => {
    const element = document.activeElement
    const ringOwner = element.classList.contains('chip-input') ? element.nextElementSibling : element
    const style = getComputedStyle(ringOwner)
    return {
      id: element.id,
      name: element.getAttribute('name') ?? '',
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? '').trim(),
      ringVisible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      decoy: element.closest('.decoy-fields') !== null,
    }
  })
}

/**
 * Waits for the element with this id to have the focus: a view moves it in an effect after
 * the render that shows the change, so the change being visible is not yet the focus moved.
 * Fails naming what has the focus instead.
 */
export async function focusReaches(page: Page, id: string, why = `focus on #${id}`): Promise<void> {
  try {
    await page.waitForFunction((wanted) => document.activeElement?.id === wanted, id, { timeout: 10_000 })
  } catch {
    const now = await focused(page)
    assert.fail(`${why}: it is on <${now.tag}${now.id ? ` id="${now.id}"` : ''}> "${now.text.slice(0, 60)}"`)
  }
}

/**
 * Presses Tab until the focused element matches, the way a keyboard user moves; every stop
 * on the way must show a focus ring and none may be a spam decoy.
 */
export async function tabTo(page: Page, matches: (element: FocusedElement) => boolean, what: string, maxPresses = 80): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press('Tab')
    const element = await focused(page)
    assert.equal(element.decoy, false, `Tab reached the decoy field ${element.name}`)
    if (element.tag !== 'body') assert.ok(element.ringVisible, `no visible focus ring on ${element.tag}#${element.id} "${element.text}"`)
    if (matches(element)) return
  }
  assert.fail(`${what} is not reachable with Tab within ${maxPresses} presses`)
}
