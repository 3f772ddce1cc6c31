import { Command, InvalidArgumentError, Option } from 'commander'
import { apiKeyView } from '../../admin/views.ts'
import { KEY_ROLES, type KeyRole } from '../../domain/roles.ts'
import { cliActor, instanceNamed, withContext } from '../context.ts'
import type { CliIo } from '../io.ts'
import { instanceOption, nameOption } from '../options.ts'
import { chosenFormat, formatOption, printListing, type Column } from '../output.ts'

type KeyRecord = ReturnType<typeof apiKeyView>

const COLUMNS: Column<KeyRecord>[] = [
  { header: 'id', cell: (k) => k.id },
  { header: 'name', cell: (k) => k.name },
  { header: 'role', cell: (k) => k.role },
  { header: 'products', cell: (k) => k.products?.join(',') ?? null },
  { header: 'commission_percent', cell: (k) => k.commission_percent ?? null },
  { header: 'prefix', cell: (k) => k.prefix },
  { header: 'created_at', cell: (k) => k.created_at },
  { header: 'last_used_at', cell: (k) => k.last_used_at },
  { header: 'revoked_at', cell: (k) => k.revoked_at },
]

/** `tourdesk keys create|list|revoke`: API keys for integrations. */
export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys').description('API keys of an instance')

  keys.command('create')
    .description('create an API key and print its secret alone on stdout (shown this once; only its hash is stored)')
    .addOption(instanceOption())
    .addOption(nameOption('what the key is for, e.g. "website sync"'))
    .addOption(new Option('--role <role>', 'what the key may do (docs/operator-api.md, "Roles"; reseller: the OCTo API only, docs/resellers.md)').choices(KEY_ROLES).makeOptionMandatory())
    .addOption(new Option('--products <ids>', 'reseller keys: the tour ids it may sell, comma-separated (left out: every tour)')
      .argParser((value) => value.split(',').map((id) => id.trim()).filter((id) => id !== '')))
    .addOption(new Option('--commission <percent>', "reseller keys: the reseller's commission, 0 to 100").argParser((value) => {
      const percent = Number(value)
      if (value.trim() === '' || !Number.isFinite(percent)) throw new InvalidArgumentError('must be a number from 0 to 100')
      return percent
    }))
    .action(async (options: { instance: string, name: string, role: KeyRole, products?: string[], commission?: number }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        const input = {
          name: options.name, role: options.role,
          ...options.products !== undefined ? { products: options.products } : {},
          ...options.commission !== undefined ? { commission_percent: options.commission } : {},
        }
        const { key, secret } = await context.staff.createKey(instance.ref, input, cliActor(io), context.clock.now())
        io.print(secret)
        io.say(`API key ${key.id} (${key.role}) created in ${instance.prefix}; send it as Authorization: Bearer <secret>`)
      })
    })

  keys.command('list')
    .description('list the API keys, revoked ones included (secrets are never shown again)')
    .addOption(instanceOption())
    .addOption(formatOption())
    .action(async (options: { instance: string, format?: string }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        const records = (await context.store.staff.listKeys(instance.ref)).map((row) => apiKeyView(row, instance.timezone))
        await printListing(records, COLUMNS, chosenFormat(options.format, io), io)
      })
    })

  keys.command('revoke')
    .description('revoke an API key at once: its next request is refused')
    .addOption(instanceOption())
    .addOption(new Option('--id <id>', 'the key id, as keys list shows it').makeOptionMandatory())
    .action(async (options: { instance: string, id: string }) => {
      await withContext(io, async ({ context }) => {
        const { instance } = instanceNamed(context, options.instance)
        await context.staff.revokeKey(instance.ref, options.id, cliActor(io), context.clock.now())
        io.say(`API key ${options.id} is revoked`)
      })
    })

  return keys
}
