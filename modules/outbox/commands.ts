/** Operator commands of the outbox: releasing mail held in the dev mailbox (held.ts). */
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { UsageError, type CommandDef } from '../../core/module.ts'
import { workspaceDirectory } from './port.ts'
import { releaseHeld } from './held.ts'

/** The workspace with this slug, from the workspace directory (the auth module owns workspaces and sends its mail through the outbox: the outbox cannot ask it). */
async function workspaceId(deps: AppDeps, slug: string): Promise<string> {
	const ws = await workspaceDirectory(deps.registry).bySlug(deps.db, slug)
	if (!ws) throw new AppError('NOT_FOUND', `No workspace with the slug "${slug}"`)
	return ws.id
}

export const outboxCommands: CommandDef[] = [
	{
		name: 'outbox release',
		usage: 'outbox release --all [--workspace S] | --id OUTBOX_ID [--json]',
		options: { all: 'flag', workspace: 'string', id: 'string' },
		check(o) {
			if (Boolean(o.all) === (o.id !== undefined)) throw new UsageError('give --all (optionally with --workspace) or --id, not both')
			if (o.id !== undefined && o.workspace !== undefined) throw new UsageError('--workspace goes with --all')
		},
		async run(deps, o) {
			const released = await releaseHeld(
				deps,
				o.id !== undefined
					? { id: String(o.id) }
					: { all: true, workspaceId: o.workspace !== undefined ? await workspaceId(deps, String(o.workspace)) : undefined },
			)
			const when = deps.config.smtpUrl ? 'they go out with the next round of the outbox worker' : 'they go out once the server runs with SMTP_URL set'
			return {
				json: { released: released.map((r) => r.id) },
				lines: [
					released.length
						? `Released ${released.length} held e-mail${released.length === 1 ? '' : 's'} from the dev mailbox: ${when}.`
						: 'No e-mail is held in the dev mailbox.',
				],
			}
		},
	},
]
