/**
 * The audit trail: who read what, through which app. Every MCP tool call (refused and failed ones
 * too), every portal view of a candidate's, an application's or a document's page, and every search
 * of the candidate database (41 CFR 60-1.12), written behind the work (writer.ts) and read by owners
 * and admins at /audit, downloaded as CSV or NDJSON, or exported with `audit export`. Changes stay in
 * the activity log. Lines older than `AUDIT_RETENTION_DAYS` are deleted by a daily sweep, except in a
 * workspace that must keep them longer (a federal contractor's hold period: the `audit:keep` port).
 */
import { defineModule } from '../../core/module.ts'
import { auditCommands } from './commands.ts'
import { auditKeepPort } from './port.ts'
import { pruneAudit } from './queries.ts'
import { recordToolCall } from './record.ts'
import { auditRoutes } from './routes.ts'
import { auditSettings } from './settings.ts'
import * as tables from './table.ts'
import { flushAudit } from './writer.ts'
import { runEvery } from '../../core/every.ts'

export { recordDataAccess, recordSearch, recordView, viewed, recordIdsIn, type ViewedRecord } from './record.ts'
export { flushAudit } from './writer.ts'
export { auditKeepPort, type AuditKeepSource } from './port.ts'
export { forgetSearchedFor, forgetSearchedForLater, SCRUB_AGAIN_MS } from './erasure.ts'
export { listAudit, exportAudit, pruneAudit, type AuditFilters } from './queries.ts'

const SWEEP_MS = 24 * 60 * 60 * 1000

export default defineModule({
	name: 'audit',
	description: 'The audit trail: every tool call, every view of a candidate, application or document, and every search of the candidate database.',
	// activity: the person filter's rule (personFilterProblem), one for /activity and /audit.
	requires: ['auth', 'activity'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	settings: auditSettings,
	ports: [auditKeepPort],
	permissions: [{ key: 'audit:read', description: 'Read and download the audit trail', grantedTo: ['owner', 'admin'] }],
	routes: auditRoutes,
	paths: ['/audit'],
	commands: auditCommands,
	nav: [{ href: '/audit', label: 'Audit trail', permission: 'audit:read' }],
	observeToolCall: recordToolCall,
	start(deps) {
		return runEvery(deps.log, { everyMs: SWEEP_MS, firstAfterMs: 60_000, failure: 'audit retention sweep failed' }, async () => {
			const removed = await pruneAudit(deps)
			if (removed) deps.log.info('audit trail lines past their retention deleted', { removed })
		})
	},
	// The lines still buffered, when the server stops and after every CLI command (closeDeps).
	settle: flushAudit,
})
