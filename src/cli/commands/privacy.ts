import { Command } from 'commander'
import { personalDataView } from '../../admin/privacy-view.ts'
import { erasedCounts } from '../../services/privacy-requests.ts'
import { cliActor, instanceNamed, withContext } from '../context.ts'
import type { CliIo } from '../io.ts'
import { emailOption, instanceOption } from '../options.ts'

/** `tourdesk privacy export|erase`: a person's privacy request, as GET and DELETE /privacy. Both are audited. */
export function privacyCommand(io: CliIo): Command {
  const privacy = new Command('privacy').description("privacy requests about one email address (both are written to the audit log, by the address's keyed hash)")

  privacy.command('export')
    .description('print everything stored about the address as JSON: messages, sign-ups, subscription, bookings, kept answers')
    .addOption(instanceOption())
    .addOption(emailOption())
    .action(async (options: { instance: string, email: string }) => {
      await withContext(io, async ({ context }) => {
        const catalog = instanceNamed(context, options.instance)
        const data = await context.privacy.exportData(catalog.instance.ref, options.email, { actor: cliActor(io) }, context.clock.now())
        io.print(JSON.stringify(personalDataView(data, catalog), null, 2))
      })
    })

  privacy.command('erase')
    .description('erase the address: its messages, sign-ups, subscription and kept answers go, its bookings keep their seats and lose the contact; prints the counts as JSON')
    .addOption(instanceOption())
    .addOption(emailOption())
    .action(async (options: { instance: string, email: string }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        const counts = await context.privacy.erase(instance.ref, options.email, { actor: cliActor(io) }, context.clock.now())
        io.print(JSON.stringify(erasedCounts(counts), null, 2))
        io.say(`what ${instance.prefix} stored about ${options.email} is erased`)
      })
    })

  return privacy
}
