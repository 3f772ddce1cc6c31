import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { assertAccessible, browserSkipReason, openGuestPage, screenshot } from '../helpers/browser.ts'
import { bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, fitsWidth, holdSeats } from '../helpers/booking-page.ts'

// The callbacks given to page.evaluate run in the browser; these names exist there, not in Node.
declare const document: any
declare function getComputedStyle(element: unknown): any

/** A guest in New York, in US English, looking at a Lisbon tour: the case where the page must name the zone. */
const NEW_YORK_GUEST = { locale: 'en-US', timezoneId: 'America/New_York' }
/** Layout boxes are fractional; half a pixel is below what anyone sees. */
const PIXEL = 0.5

interface Box { x: number, y: number, width: number, height: number }

/** The date chips' boxes, grouped into rows from top to bottom. */
async function chipRows(page: Page): Promise<Box[][]> {
  const boxes: Box[] = await page.evaluate(() => [...document.querySelectorAll('.date-strip .chip')]
    .map((chip: any) => chip.getBoundingClientRect())
    .map(({ x, y, width, height }: Box) => ({ x, y, width, height })))
  const rows = new Map<number, Box[]>()
  for (const box of boxes) {
    const row = [...rows.keys()].find((y) => Math.abs(y - box.y) < PIXEL) ?? box.y
    rows.set(row, [...rows.get(row) ?? [], box])
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row.sort((a, b) => a.x - b.x))
}

function assertNear(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) < PIXEL, `${what}: ${actual} is not ${expected}`)
}

/** "rgb(109, 40, 217)" as [109, 40, 217]. */
function rgb(color: string): number[] {
  const channels = /^rgba?\((\d+), (\d+), (\d+)/.exec(color)
  assert.ok(channels, `${color} is an rgb() colour`)
  return channels.slice(1, 4).map(Number)
}

/** The hue of an rgb() colour in degrees (0 to 360). */
function hue(color: string): number {
  const [r, g, b] = rgb(color).map((c) => c / 255)
  const max = Math.max(r, g, b)
  const range = max - Math.min(r, g, b)
  if (range === 0) return 0
  const sector = max === r ? ((g - b) / range + 6) % 6 : max === g ? (b - r) / range + 2 : (r - g) / range + 4
  return sector * 60
}

/** How far apart two hues are on the colour wheel, in degrees (0 to 180). */
function hueDistance(a: string, b: string): number {
  const distance = Math.abs(hue(a) - hue(b))
  return Math.min(distance, 360 - distance)
}

/** WCAG 2 contrast ratio of two rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = rgb(color).map((c) => c / 255).map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

describe('the booking page looks right at 1280 and 375 px in Chromium', { skip: browserSkipReason(), timeout: 180_000 }, () => {
  const started = bookingPageSuite()

  for (const width of [1280, 375]) {
    test(`at ${width} px the brand lines up with the content, the date chips are an even grid, the total has one rule and focus is not the error colour`, async () => {
      const phone = width < 500
      const guest = await openGuestPage(started.browser, { viewport: { width, height: 900 }, isMobile: phone, hasTouch: phone, ...NEW_YORK_GUEST })
      const { page } = guest
      await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'fado-night'))
      await chooseFirstOpenTime(page)

      const brand = (await page.locator('.operator-name').boundingBox())!
      const title = (await page.locator('#page-title').boundingBox())!
      assertNear(brand.x, title.x, "the brand's left edge against the content's")
      assertNear(brand.width, title.width, "the brand's column against the content's")

      const rows = await chipRows(page)
      const chips = rows.flat()
      assert.equal(chips.length, 14, 'two weeks of dates')
      if (!phone) assert.deepEqual(rows.map((row) => row.length), [7, 7], 'a week per row')
      assert.ok(rows.slice(0, -1).every((row) => row.length === rows[0].length), 'every row but the last is full')
      assert.ok(rows.at(-1)!.length <= rows[0].length)
      const gap = rows[0][1].x - (rows[0][0].x + rows[0][0].width)
      for (const [r, row] of rows.entries()) {
        for (const [i, chip] of row.entries()) {
          assertNear(chip.width, chips[0].width, `the width of chip ${i + 1} in row ${r + 1}`)
          assertNear(chip.height, chips[0].height, `the height of chip ${i + 1} in row ${r + 1}`)
          assertNear(chip.x, rows[0][i].x, `chip ${i + 1} in row ${r + 1} stands in its column`)
          if (i > 0) assertNear(chip.x - (row[i - 1].x + row[i - 1].width), gap, `the gap before chip ${i + 1} in row ${r + 1}`)
        }
        if (r > 0) assertNear(row[0].y - (rows[r - 1][0].y + rows[r - 1][0].height), gap, `the gap above row ${r + 1}`)
      }
      const labelHeights: number[] = await page.evaluate(() => [...document.querySelectorAll('.date-strip .chip-main')]
        .map((main: any) => main.getBoundingClientRect().height))
      assert.equal(new Set(labelHeights).size, 1, `every date breaks into the same lines (label heights ${[...new Set(labelHeights)].join(', ')})`)
      assert.equal(await fitsWidth(page), true, `the tour fits ${width} px`)
      await assertAccessible(page, `tour at ${width} px`)

      await holdSeats(page)
      const rule = await page.evaluate(() => {
        const total = document.querySelector('.hold-panel .price-list .total')
        const [term, amount] = [total.querySelector('dt'), total.querySelector('dd')]
        const style = getComputedStyle(total)
        // (No helper function here: tsx would wrap a named one in __name, which the page does not have.)
        const [row, termBox, amountBox] = [total, term, amount].map((element: any) => element.getBoundingClientRect())
        return {
          style: style.borderTopStyle, width: parseFloat(style.borderTopWidth),
          left: row.left, right: row.right, termLeft: termBox.left, amountRight: amountBox.right,
          partsRuled: [term, amount].filter((part: any) => getComputedStyle(part).borderTopStyle !== 'none').length,
          rowsRuled: [...document.querySelectorAll('.hold-panel .price-list > div')]
            .filter((row: any) => getComputedStyle(row).borderTopStyle !== 'none').length,
        }
      })
      assert.equal(rule.style, 'solid', "the total's row carries the rule")
      assert.ok(rule.width >= 1)
      assert.equal(rule.partsRuled, 0, 'the term and the amount draw no rule of their own')
      assert.equal(rule.rowsRuled, 1, 'only the total is ruled')
      assertNear(rule.left, rule.termLeft, 'the rule starts where the total row starts')
      assertNear(rule.right, rule.amountRight, 'the rule ends where the amount ends')

      await page.fill('#name', 'Ana Silva')
      await page.fill('#email', 'ana@example.com')
      await page.fill('#phone', 'not a phone')
      await page.click('#checkout-button')
      await page.locator('#phone-message').filter({ hasText: 'This is not a phone number' }).waitFor()
      await page.focus('#phone')
      const colours = await page.evaluate(() => {
        const phone = getComputedStyle(document.querySelector('#phone'))
        return {
          outline: phone.outlineColor, outlineStyle: phone.outlineStyle, outlineWidth: parseFloat(phone.outlineWidth),
          invalidBorder: phone.borderTopColor,
          errorText: getComputedStyle(document.querySelector('#phone-message')).color,
          paper: getComputedStyle(document.body).backgroundColor,
        }
      })
      assert.equal(colours.outlineStyle, 'solid')
      assert.ok(colours.outlineWidth >= 2, 'the focus ring is at least 2 px')
      assert.notEqual(colours.outline, colours.invalidBorder, 'the focus ring differs from the border of a field in error')
      assert.notEqual(colours.outline, colours.errorText, 'the focus ring differs from the error messages')
      // An orange ring beside a red error border reads as one more error: the hues must be far apart, not merely unequal.
      assert.ok(hueDistance(colours.outline, colours.invalidBorder) >= 60, `the focus ring's hue (${colours.outline}) is far from the error colour's (${colours.invalidBorder})`)
      const paper = colours.paper === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : colours.paper
      assert.ok(contrast(colours.outline, paper) >= 3, `the focus ring has 3:1 against the page (${colours.outline})`)
      assert.equal(await fitsWidth(page), true, `the hold fits ${width} px`)
      await assertAccessible(page, `hold with an error at ${width} px`)
      await screenshot(page, `polish-${width}`)
      assert.deepEqual(guest.faults, [])
      await guest.close()
    })
  }

  test("a guest in New York sees the operator's zone named one way in the slot list, the hold and the confirmation", async () => {
    const guest = await openGuestPage(started.browser, NEW_YORK_GUEST)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'fado-night'))
    const start = await chooseFirstOpenTime(page)
    const zoneNote = await page.textContent('#zone-note') ?? ''
    const named = /^Times are local to the tour: (.+) \(Europe\/Lisbon\)\. Your device is set to (.+)\.$/.exec(zoneNote)
    assert.ok(named, `the slot list names both zones: "${zoneNote}"`)
    const [, operatorZone, guestZone] = named
    assert.equal(operatorZone, 'Lisbon time')
    assert.equal(guestZone, 'New York time', "the guest's zone is named the same way")
    const time = await page.locator(`label[for="${await page.locator(`input[name="start"][value="${start}"]`).getAttribute('id')}"] .chip-main`).textContent()
    assert.match(time ?? '', /^\d{1,2}:\d\d [AP]M$/)

    await holdSeats(page)
    const details = await page.textContent('.hold-details') ?? ''
    assert.ok(details.includes(`${time} ${operatorZone}`), `the hold names the time and zone as the slot list does: "${details}"`)
    const otherNames = /GMT|UTC|WET|WEST|Standard Time|Summer Time|Daylight Time|Western European/
    assert.doesNotMatch(details, otherNames)

    await page.fill('#name', 'Ana Silva')
    await page.fill('#email', 'ana@example.com')
    await page.click('#checkout-button')
    await page.locator('#confirmation-title').waitFor()
    const confirmation = await page.textContent('.confirmation') ?? ''
    assert.ok(confirmation.includes(`${time} ${operatorZone}`), `the confirmation names the zone as the slot list does: "${confirmation}"`)
    assert.doesNotMatch(confirmation, otherNames)
    await assertAccessible(page, 'confirmation in New York')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})
