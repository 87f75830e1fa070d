import { UsageError, type CommandDef } from '../../core/module.ts'
import { parseIsoInstant } from '../../core/time.ts'
import { requireWorkspace } from '../auth/index.ts'
import { exportAudit, type ExportFormat } from './queries.ts'

/** An ISO 8601 instant from the command line, read strictly (core/time.ts): an impossible date is refused, never moved. */
function instant(name: string, value: string | boolean | undefined): Date | undefined {
	if (value === undefined) return undefined
	const d = parseIsoInstant(String(value))
	if (!d)
		throw new UsageError(
			`--${name} must be an existing date or time, ISO 8601, in the years 1000-9998, such as 2026-01-31 or 2026-01-31T09:00:00Z (UTC unless an offset is given)`,
		)
	return d
}

export const auditCommands: CommandDef[] = [
	{
		name: 'audit export',
		usage: 'audit export --workspace S --since ISO [--until ISO] --format ndjson|csv',
		options: { workspace: 'string', since: 'string', until: 'string', format: 'string' },
		required: ['workspace', 'since', 'format'],
		check(o) {
			if (o.format !== 'csv' && o.format !== 'ndjson') throw new UsageError('--format must be ndjson or csv')
			const since = instant('since', o.since)!
			const until = instant('until', o.until)
			if (until && until <= since) throw new UsageError('--until must be later than --since')
		},
		async run(deps, o, output) {
			const format = String(o.format)
			const since = instant('since', o.since)!
			const until = instant('until', o.until)
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
