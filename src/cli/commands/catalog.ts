import { readFileSync } from 'node:fs'
import { Command, Option } from 'commander'
import { editSummary } from '../../admin/catalog-view.ts'
import { CatalogFileError, describeIssues, parseCatalogFile } from '../../catalog/catalog-file.ts'
import { ApiError, type FieldError } from '../../errors/api-error.ts'
import type { CatalogInstance } from '../../schemas/catalog.ts'
import type { CatalogEditResult } from '../../catalog/catalog-editor.ts'
import { cliActor, instanceNamed, withContext } from '../context.ts'
import { CliFailure } from '../failure.ts'
import type { CliIo } from '../io.ts'

type SummaryFormat = 'text' | 'json'

/** What an import did (or would do) to one instance: the operator API's change summary, and which instance. */
type Summary = ReturnType<typeof editSummary> & Pick<CatalogEditResult, 'instance'>

/** The instances of FILE, checked as the server checks TOURDESK_CONFIG (src/catalog/catalog-file.ts); a bad one fails naming every field. */
function readCatalogFile(file: string): CatalogInstance[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new CliFailure(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  try {
    return parseCatalogFile(text, file)
  } catch (err) {
    // Every issue at once, in the one line a failure has: the operator fixes the file in one pass.
    if (err instanceof CatalogFileError) throw new CliFailure(describeIssues(file, err.issues))
    throw err
  }
}

/** A rule the database's state adds (a prefix another instance has, a frozen currency), named where it is in FILE. */
function refusal(file: string, index: number, err: unknown): unknown {
  if (!(err instanceof ApiError)) return err
  const errors = (err.extra.errors as FieldError[] | undefined) ?? []
  const fields = errors.map((e) => `instances[${index}]${e.field === '(body)' ? '' : `.${e.field}`} ${e.message}`)
  return new CliFailure(`${file}: ${fields.length > 0 ? fields.join('; ') : err.message}`)
}

function summaryText({ instance, dry_run, catalog_version, changes, orphaned_departures, capacity_kept }: Summary): string {
  const count = changes.length === 0 ? 'no changes' : `${changes.length} change${changes.length === 1 ? '' : 's'}`
  const state = dry_run ? (changes.length === 0 ? '' : ' (dry run: nothing changed)') : `, catalog version ${catalog_version}`
  const lines = [`${instance.prefix} (${instance.ref}): ${count}${state}`]
  for (const change of changes) {
    const detail = change.action.endsWith('.updated') ? `: ${change.fields.join(', ')}` : ''
    lines.push(`  ${change.action} ${change.target.id}${detail}`)
    if (change.unit_changes) lines.push(`    units: ${change.unit_changes.join('; ')}`)
  }
  for (const d of orphaned_departures) lines.push(`  orphaned departure ${d.tour_id} ${d.start}: off the schedule, kept for ${d.seats_taken} seats taken`)
  for (const d of capacity_kept) {
    lines.push(`  capacity kept ${d.tour_id} ${d.start}: ${d.capacity} (${d.reason === 'set_by_operator' ? 'set by an operator' : `${d.seats_taken} seats taken`})`)
  }
  return lines.join('\n')
}

/** `tourdesk catalog import|export`: the catalog file in and out of the database, through the one catalog editor (src/catalog/catalog-editor.ts). */
export function catalogCommand(io: CliIo): Command {
  const catalog = new Command('catalog').description('the catalog in the database, in and out as a catalog file (docs/catalog.md)')

  catalog.command('import')
    .description('apply a catalog file: every instance in it, matched by ref (a new ref creates the instance, and running nodes start serving it '
      + 'within 2 seconds); prints what changed per instance. Nothing is applied if any instance is refused. '
      + 'Tours left out that have bookings are archived, not deleted.')
    .argument('<file>', 'the catalog file (JSON, as docs/catalog.md describes)')
    .option('--dry-run', 'print what would change and change nothing')
    .addOption(new Option('--format <format>', 'the summary as text or json (default: text when stdout is a terminal, else json)').choices(['text', 'json']))
    .action(async (file: string, options: { dryRun?: boolean, format?: SummaryFormat }) => {
      const instances = readCatalogFile(file)
      const format = options.format ?? (io.stdoutIsTerminal ? 'text' : 'json')
      await withContext(io, async ({ context }) => {
        const applyOne = async (instance: CatalogInstance, index: number, dryRun: boolean): Promise<Summary> => {
          const result = await context.catalogEditor
            .apply(instance.ref, () => instance, { actor: cliActor(io), now: context.clock.now(), dryRun, mayCreate: true })
            .catch((err: unknown) => { throw refusal(file, index, err) })
          return { instance: result.instance, ...editSummary(result) }
        }
        const shown = io.progress()
        const applyAll = async (dryRun: boolean): Promise<Summary[]> => {
          const summaries: Summary[] = []
          for (const [index, instance] of instances.entries()) {
            shown.update(`tourdesk: ${dryRun ? 'checking' : 'importing'} ${instance.prefix} (${index + 1} of ${instances.length}, ${instance.tours.length} tours)`)
            summaries.push(await applyOne(instance, index, dryRun))
          }
          shown.done()
          return summaries
        }
        // Every instance is checked against the database first, so a refused one leaves the others unapplied too.
        let summaries = await applyAll(true)
        if (!options.dryRun) summaries = await applyAll(false)
        io.print(format === 'json' ? JSON.stringify(summaries, null, 2) : summaries.map(summaryText).join('\n'))
      })
    })

  catalog.command('export')
    .description('print the catalog in the catalog file format ({"instances": [...]}, archived tours included): every instance, '
      + 'or the one --instance names; importing it changes nothing')
    .addOption(new Option('--instance <prefix>', 'only this instance, by its prefix in the catalog (e.g. lisbon)'))
    .action(async (options: { instance?: string }) => {
      await withContext(io, async ({ context }) => {
        const chosen = options.instance === undefined ? [...context.catalogs.values()] : [instanceNamed(context, options.instance)]
        const shown = io.progress()
        const instances: CatalogInstance[] = []
        for (const { instance } of chosen) {
          shown.update(`tourdesk: reading ${instance.prefix}`)
          const current = await context.catalogEditor.read(instance.ref)
          if (!current) throw new CliFailure(`the instance ${instance.prefix} is no longer in the database`)
          instances.push(current)
        }
        shown.done()
        io.print(JSON.stringify({ instances }, null, 2))
      })
    })

  return catalog
}
