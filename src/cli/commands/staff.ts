import { Command } from 'commander'
import { setupLink } from '../../domain/links.ts'
import { staffAccountView } from '../../admin/views.ts'
import type { Role } from '../../domain/roles.ts'
import type { StaffAccount } from '../../schemas/admin/staff.ts'
import { cliActor, instanceNamed, serverOrigin, withContext } from '../context.ts'
import { CliFailure } from '../failure.ts'
import type { CliIo } from '../io.ts'
import { emailOption, instanceOption, nameOption, roleOption } from '../options.ts'
import { chosenFormat, formatOption, printListing, type Column } from '../output.ts'

const COLUMNS: Column<StaffAccount>[] = [
  { header: 'id', cell: (s) => s.id },
  { header: 'email', cell: (s) => s.email },
  { header: 'name', cell: (s) => s.name },
  { header: 'role', cell: (s) => s.role },
  { header: 'disabled', cell: (s) => s.disabled },
  { header: 'set_up', cell: (s) => s.set_up },
  { header: 'created_at', cell: (s) => s.created_at },
]

/** `tourdesk staff add|list|reset|disable`: staff accounts, as POST /staff and friends, straight on the database. */
export function staffCommand(io: CliIo): Command {
  const staff = new Command('staff').description('staff accounts of an instance')

  staff.command('add')
    .description('add a staff account and print its one-time setup link (valid 24 hours) alone on stdout; with --password-stdin, set the password from stdin instead and print nothing')
    .addOption(instanceOption())
    .addOption(emailOption())
    .addOption(nameOption("the person's name"))
    .addOption(roleOption())
    .option('--password-stdin', 'read the password (at least 12 characters) from stdin')
    .action(async (options: { instance: string, email: string, name: string, role: Role, passwordStdin?: boolean }) => {
      const password = options.passwordStdin ? await io.readStdin() : undefined
      await withContext(io, async ({ context, settings }) => {
        const { instance } = instanceNamed(context, options.instance)
        const added = await context.staff.addStaff(instance.ref, { email: options.email, name: options.name, role: options.role, password }, cliActor(io), context.clock.now())
        if (added.setupToken === null) {
          io.say(`${added.staff.email} (${added.staff.role}) can sign in to ${instance.prefix} now`)
          return
        }
        io.print(setupLink(serverOrigin(settings), instance.prefix, added.setupToken))
        io.say(`${added.staff.email} (${added.staff.role}) added to ${instance.prefix}; the setup link works once, within 24 hours`)
      })
    })

  staff.command('list')
    .description('list the staff accounts, disabled ones included')
    .addOption(instanceOption())
    .addOption(formatOption())
    .action(async (options: { instance: string, format?: string }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        const accounts = (await context.store.staff.list(instance.ref)).map((row) => staffAccountView(row, instance.timezone))
        await printListing(accounts, COLUMNS, chosenFormat(options.format, io), io)
      })
    })

  staff.command('reset')
    .description('issue a new one-time setup link (valid 24 hours) for an account, for a forgotten password, and print it alone on stdout; earlier unused links stop working, and the present password works until the link is used')
    .addOption(instanceOption())
    .addOption(emailOption())
    .action(async (options: { instance: string, email: string }) => {
      await withContext(io, async ({ context, settings }) => {
        const { instance } = instanceNamed(context, options.instance)
        const account = await context.store.staff.findByEmail(instance.ref, options.email)
        if (!account) throw new CliFailure(`${options.email} has no account in ${instance.prefix}`)
        const issued = await context.setupLinks.issue(instance.ref, account.id, cliActor(io), context.clock.now())
        io.print(setupLink(serverOrigin(settings), instance.prefix, issued.setupToken))
        io.say(`a new setup link for ${account.email} in ${instance.prefix}; it works once, within 24 hours`)
      })
    })

  staff.command('disable')
    .description('disable an account (accounts are kept for the audit log); its sessions end at once. The last active manager cannot be disabled.')
    .addOption(instanceOption())
    .addOption(emailOption())
    .action(async (options: { instance: string, email: string }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        const account = await context.store.staff.findByEmail(instance.ref, options.email)
        if (!account) throw new CliFailure(`${options.email} has no account in ${instance.prefix}`)
        await context.staff.updateStaff(instance.ref, account.id, { disabled: true }, cliActor(io), context.clock.now())
        io.say(`${account.email} is disabled in ${instance.prefix}`)
      })
    })

  return staff
}
