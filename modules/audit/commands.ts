import { AppError } from '../../core/errors.ts'
import { UsageError, type CommandDef } from '../../core/module.ts'
import { requireWorkspace } from '../auth/index.ts'
import { exportAudit, type ExportFormat } from './queries.ts'

/** An ISO 8601 instant from the command line (a date alone is midnight UTC). */
function instant(name: string, value: string | boolean | undefined): Date | undefined {
	if (value === undefined) return undefined
	const d = new Date(String(value))
	if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(String(value)))
		throw new UsageError(`--${name} must be an ISO 8601 date or time such as 2026-01-31 or 2026-01-31T09:00:00Z`)
	return d
}

export const auditCommands: CommandDef[] = [
	{
		name: 'audit export',
		usage: 'audit export --workspace S --since ISO [--until ISO] --format ndjson|csv',
		options: { workspace: 'string', since: 'string', until: 'string', format: 'string' },
		required: ['workspace', 'since', 'format'],
		async run(deps, o, output) {
			const format = String(o.format)
			if (format !== 'csv' && format !== 'ndjson') throw new UsageError('--format must be ndjson or csv')
			const since = instant('since', o.since)!
			const until = instant('until', o.until)
			if (until && until <= since) throw new AppError('VALIDATION', '--until must be later than --since')
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			let bytes = 0
			for await (const chunk of exportAudit(deps, ws.id, { since, until }, format as ExportFormat)) {
				bytes += Buffer.byteLength(chunk)
				await output.write(chunk)
			}
			return { json: { workspaceId: ws.id, format, bytes }, lines: [] }
		},
	},
]
