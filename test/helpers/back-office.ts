import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core'
import type { Role } from '../../src/domain/roles.ts'
import { launchBrowser, openGuestPage, type GuestPage } from './browser.ts'
import { DEFAULT_NOW, startService, type StartedService, type StartOptions } from './build.ts'
import { apiKeyClient, STAFF_PASSWORD, type OperatorClient } from './operator.ts'
import { mailSink, type MailSink } from './smtp.ts'

// What the back office's browser tests (test/browser/back-office*.test.ts) share: pages whose
// clock is held at DEFAULT_NOW, addresses in the lisbon instance, and staff signed in through
// the sign-in form.

/** The actor of staff accounts a test makes directly through the service. */
export const SYSTEM = { type: 'system' as const, id: null, name: 'test' }

export interface SignInOptions {
  /** The staff member's name; `Sam <role>` unless given. */
  name?: string
  /** The back office path to open (below the instance; '' is Today): the sign-in form shows there. */
  path?: string
  /** The h1 that shows the sign-in is done: /^Today/ unless given. */
  heading?: string | RegExp
}

export interface BackOffice {
  /** The lisbon instance's reference, for calls to the service's context. */
  ref(): string
  /** The address of a back office path of the lisbon instance. */
  officeUrl(path?: string): string
  /**
   * A browser profile whose clock shows DEFAULT_NOW. Its close() first checks that the page
   * had no script error, no CSP refusal and no console error (refused requests aside) all along.
   */
  officePage(options?: BrowserContextOptions): Promise<GuestPage>
  /** A staff account of `role` with the test password, signed in through the sign-in form. */
  signInAs(page: Page, role: Role, options?: SignInOptions): Promise<{ email: string, id: string }>
  /**
   * Follows a navigation link from the keyboard. A click waits for the link to be "stable" over
   * animation frames, which under a fixed page clock on a loaded machine it sometimes never saw.
   */
  follow(link: Locator): Promise<void>
}

/**
 * The back office helpers of one describe block. `started` answers the service and browser
 * backOfficeSuite's before() starts, so the helpers can be made where the block declares them.
 */
function backOffice(started: () => { service: StartedService, browser: Browser }): BackOffice {
  const ref = () => started().service.context.catalogs.get('lisbon')!.instance.ref
  const officeUrl = (path = '') => `${started().service.origin}/admin/lisbon/${path}`

  async function officePage(options: BrowserContextOptions = {}): Promise<GuestPage> {
    const office = await openGuestPage(started().browser, options)
    await office.page.clock.setFixedTime(new Date(DEFAULT_NOW))
    return {
      ...office,
      async close() {
        assert.deepEqual(office.faults, [], 'no script error or CSP refusal')
        assert.deepEqual(office.consoleErrors, [], 'no console error')
        await office.close()
      },
    }
  }

  async function signInAs(page: Page, role: Role, options: SignInOptions = {}): Promise<{ email: string, id: string }> {
    const { service } = started()
    const { name = `Sam ${role}`, path = '', heading = /^Today/ } = options
    const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`
    const { staff } = await service.context.staff.addStaff(ref(), { email, name, role, password: STAFF_PASSWORD }, SYSTEM, service.clock.now())
    await page.goto(officeUrl(path))
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(STAFF_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    return { email, id: staff.id }
  }

  async function follow(link: Locator): Promise<void> {
    await link.focus()
    await link.press('Enter')
  }

  return { ref, officeUrl, officePage, signInAs, follow }
}

export interface BackOfficeSuiteOptions extends StartOptions {
  /** Start a mail sink and send the service's email to it (as SMTP_URL). */
  mail?: boolean
}

/** The back office helpers, and what the describe block's before() started for them. */
export interface BackOfficeSuite extends BackOffice {
  readonly service: StartedService
  readonly browser: Browser
  /** A manager's API key on the lisbon instance, for setting up and checking over the operator API. */
  readonly manager: OperatorClient
  /** The mail sink, when the suite was asked for `mail`. */
  readonly sink: MailSink
}

/**
 * Starts the service (with `options`), Chromium and a manager's API key in the calling describe
 * block's before(), and stops them in its after(). Call it directly in the block; read the
 * started things from the answer inside tests.
 */
export function backOfficeSuite(options: BackOfficeSuiteOptions = {}): BackOfficeSuite {
  const { mail, ...startOptions } = options
  let service: StartedService
  let browser: Browser
  let manager: OperatorClient
  let sink: MailSink | undefined

  before(async () => {
    if (mail) sink = await mailSink()
    service = await startService(sink ? { ...startOptions, email: { ...startOptions.email, smtpUrl: sink.url } } : startOptions)
    browser = await launchBrowser()
    manager = (await apiKeyClient(service, 'manager')).client
  })
  after(async () => {
    await browser?.close()
    await service?.close()
    await sink?.close()
  })

  return {
    ...backOffice(() => ({ service, browser })),
    get service() { return service },
    get browser() { return browser },
    get manager() { return manager },
    get sink() {
      assert.ok(sink, 'the suite was started with mail: true')
      return sink
    },
  }
}
