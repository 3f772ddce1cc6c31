import { Command, Option } from 'commander'
import { manifestCsv, manifestView, paidVia } from '../../admin/departure-view.ts'
import { resellerNamesOf } from '../../admin/reseller-view.ts'
import { describeUnits } from '../../domain/units.ts'
import type { DepartureManifest, ManifestEntry } from '../../schemas/admin/departure.ts'
import { instanceNamed, withContext } from '../context.ts'
import type { CliIo } from '../io.ts'
import { instanceOption, parseStart, startInZone, type GivenStart } from '../options.ts'
import { chosenFormat, formatOption, money, printListing, type Column } from '../output.ts'

function columns(currency: string): Column<ManifestEntry>[] {
  return [
    { header: 'code', cell: (e) => e.code },
    { header: 'status', cell: (e) => e.status },
    { header: 'name', cell: (e) => e.name },
    { header: 'phone', cell: (e) => e.phone },
    { header: 'party', cell: (e) => e.party },
    { header: 'add-ons', cell: (e) => e.addons.map((a) => `${a.quantity} × ${a.name}`).join('; ') },
    { header: 'due', cell: (e) => e.reseller ? paidVia(e.reseller) : money(e.due_on_arrival, currency) },
    { header: 'checked_in', cell: (e) => e.checked_in_at !== null },
    { header: 'note', cell: (e) => e.note },
    // Last, as in the CSV: after the columns read by position before units existed.
    { header: 'seats', cell: (e) => e.seats },
    { header: 'units', cell: (e) => describeUnits(e.units) },
    { header: 'language', cell: (e) => e.language },
  ]
}

/** What a guide reads first: which departure, how many guests, what to collect. */
function heading(view: DepartureManifest, tourTitle: string): string {
  const { departure, totals } = view
  const state = departure.cancelled ? ', CANCELLED' : departure.closed ? ', closed' : ''
  return `${tourTitle}, ${departure.date} ${departure.time}${state}: ${totals.guests} guests expected of ${departure.capacity}, `
    + `${money(totals.due_on_arrival, totals.currency)} due on arrival\n`
    + (totals.languages.length > 0 ? `guided in: ${totals.languages.map((total) => `${total.guests} ${total.language}`).join(', ')}\n` : '')
}

/** `tourdesk manifest`: one departure's manifest, as GET /departures/{tour_id}/{start}, through the departures service. */
export function manifestCommand(io: CliIo): Command {
  return new Command('manifest')
    .description("print a departure's manifest: every requested, confirmed, completed and no-show booking, with totals (csv: the same CSV as the API)")
    .addOption(instanceOption())
    .addOption(new Option('--tour <tour>', 'the tour id').makeOptionMandatory())
    .addOption(new Option('--start <start>', "the start: a local date and time in the instance's zone (\"2026-06-02 20:00\"), or RFC 3339 with an offset (2026-06-02T20:00:00+01:00)")
      .makeOptionMandatory().argParser(parseStart))
    .addOption(formatOption())
    .action(async (options: { instance: string, tour: string, start: GivenStart, format?: string }) => {
      await withContext(io, async ({ context }) => {
        const catalog = instanceNamed(context, options.instance)
        const { departure, manifest } = await context.departures.detail({ catalog, now: context.clock.now() }, options.tour, startInZone(options.start, catalog.instance.timezone))
        const view = manifestView(departure, manifest, catalog, await resellerNamesOf(context.store, catalog.instance.ref))
        const format = chosenFormat(options.format, io)
        if (format === 'json') io.print(JSON.stringify(view, null, 2))
        else if (format === 'csv') await io.write(manifestCsv(view))
        else {
          await io.write(heading(view, catalog.tourById.get(options.tour)?.catalog.title ?? options.tour))
          await printListing(view.manifest, columns(view.totals.currency), 'table', io)
        }
      })
    })
}
