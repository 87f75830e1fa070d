/** Operator command of the careers site: `alerts send` queues every job-alert digest that is due now (alerts.ts). */
import { AppError } from '../../core/errors.ts'
import type { CommandDef } from '../../core/module.ts'
import { findWorkspace } from '../auth/index.ts'
import { sendDigests } from './alerts.ts'

export const careersCommands: CommandDef[] = [
	{
		name: 'alerts send',
		usage: 'alerts send [--workspace S] [--json]',
		options: { workspace: 'string' },
		async run(deps, o) {
			let workspaceId: string | undefined
			if (o.workspace !== undefined) {
				const ws = await findWorkspace(deps.db, String(o.workspace))
				if (!ws) throw new AppError('NOT_FOUND', `No workspace with the slug "${String(o.workspace)}"`)
				workspaceId = ws.id
			}
			const run = await sendDigests(deps, { workspaceId })
			return {
				json: { digests: run.sent, jobs: run.jobs },
				lines: [
					run.sent
						? `Queued ${run.sent} job-alert digest${run.sent === 1 ? '' : 's'} (${run.jobs} job${run.jobs === 1 ? '' : 's'}) in the outbox.`
						: 'No job-alert digest is due (none with new matching jobs and no digest in the last day).',
				],
			}
		},
	},
]
