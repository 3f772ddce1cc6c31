import { Command, Option } from 'commander'
import { RESELLER_SUMMARY_COLUMNS, resellerNamesOf, resellerSummaryCsv, resellerSummaryLines, type ResellerSummaryLine } from '../../admin/reseller-view.ts'
import { instanceNamed, withContext } from '../context.ts'
import type { CliIo } from '../io.ts'
import { instanceOption, parseDate } from '../options.ts'
import { chosenFormat, formatOption, printListing, type Column } from '../output.ts'

const COLUMNS: Column<ResellerSummaryLine>[] = RESELLER_SUMMARY_COLUMNS.map((header) => ({ header, cell: (line) => line[header] }))

/** `tourdesk resellers summary`: GET /exports/resellers.csv, through the operator bookings service. */
export function resellersCommand(io: CliIo): Command {
  const resellers = new Command('resellers').description('resellers selling through the OCTo API (docs/resellers.md)')

  resellers.command('summary')
    .description("each reseller's confirmed, checked-in and no-show bookings over a range of departure dates: bookings, guests, retail, commission and the net it owes "
      + '(csv: the same CSV as GET /exports/resellers.csv)')
    .addOption(instanceOption())
    .addOption(new Option('--from <date>', "first departure date (YYYY-MM-DD, the instance's time zone)").argParser(parseDate).makeOptionMandatory())
    .addOption(new Option('--to <date>', 'last departure date, inclusive').argParser(parseDate).makeOptionMandatory())
    .addOption(formatOption())
    .action(async (options: { instance: string, from: string, to: string, format?: string }) => {
      await withContext(io, async ({ context }) => {
        const catalog = instanceNamed(context, options.instance)
        const sales = await context.operatorBookings.resellerSummary(catalog, { from: options.from, to: options.to })
        const lines = resellerSummaryLines(sales, await resellerNamesOf(context.store, catalog.instance.ref))
        const format = chosenFormat(options.format, io)
        if (format === 'csv') await io.write(resellerSummaryCsv(lines))
        else await printListing(lines, COLUMNS, format, io)
      })
    })

  return resellers
}
