/**
 * Reading the trail: the /audit page's filtered, keyset-paged list (newest first), the choices its
 * filters offer, the export (CSV or NDJSON, streamed a batch at a time, oldest first) and the
 * retention sweep.
 */
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import { csvRows } from '../../core/csv.ts'
import type { AppDeps } from '../../core/deps.ts'
import { keysetPage, newestWrittenFirst } from '../../core/paging.ts'
import { contributionsTo } from '../../core/registry.ts'
import { listPeople } from '../auth/index.ts'
import { auditKeepPort } from './port.ts'
import { auditSettings } from './settings.ts'
import { auditLog } from './table.ts'
import { flushAudit } from './writer.ts'

export interface AuditFilters {
	/** The person (user id). */
	readonly person?: string
	/** The app or personal token, by name. */
	readonly app?: string
	/** A tool's name or an event (`candidate.viewed`, `candidates.searched`). */
	readonly action?: string
	/** A record id the line names. */
	readonly record?: string
	readonly since?: Date
	readonly until?: Date
}

export type AuditRow = typeof auditLog.$inferSelect

function conditions(workspaceId: string, f: AuditFilters): SQL[] {
	return [
		eq(auditLog.workspaceId, workspaceId),
		...(f.person ? [eq(auditLog.actorUserId, f.person)] : []),
		...(f.app ? [eq(auditLog.credentialName, f.app), sql`${auditLog.credentialKind} in ('oauth_app', 'personal_token')`] : []),
		...(f.action ? [eq(auditLog.action, f.action)] : []),
		...(f.record ? [sql`${auditLog.recordIds} @> array[${f.record}]::text[]`] : []),
		...(f.since ? [gte(auditLog.at, f.since)] : []),
		...(f.until ? [lt(auditLog.at, f.until)] : []),
	]
}

const NEWEST = newestWrittenFirst<AuditRow>(auditLog.at, auditLog.seq, (r) => r.at)

/** A page of the trail, newest first; the cursor is bound to the workspace and the filters. */
export async function listAudit(deps: AppDeps, workspaceId: string, filters: AuditFilters, page: { limit: number; cursor?: string }) {
	await flushAudit(deps)
	return keysetPage(deps, {
		scope: `audit:${workspaceId}:${JSON.stringify(filters)}`,
		cursor: page.cursor,
		limit: page.limit,
		order: NEWEST,
		read: (after, order, size) =>
			deps.db
				.select()
				.from(auditLog)
				.where(and(...conditions(workspaceId, filters), after))
				.orderBy(order)
				.limit(size),
	})
}

/** How many of the latest lines the filters' choices are gathered from: the page never reads the whole trail. */
const CHOICES_FROM_LATEST = 10_000

/**
 * What the filters offer: the workspace's people and every tool, with the people, apps and events of
 * the latest CHOICES_FROM_LATEST lines (someone who has left, an app since disconnected). Reading
 * distinct values over the whole trail cost a scan of years of lines on every page view.
 */
export async function auditChoices(deps: AppDeps, workspaceId: string) {
	const latest = sql`(select actor_user_id, actor_name, credential_kind, credential_name, action from audit_log where workspace_id = ${workspaceId} order by at desc, seq desc limit ${CHOICES_FROM_LATEST}) l`
	const [members, recent] = await Promise.all([
		listPeople(deps.db, workspaceId),
		deps.database.rows<{ id: string | null; name: string; app: string | null; action: string }>(
			sql`select distinct l.actor_user_id as id, l.actor_name as name, case when l.credential_kind in ('oauth_app', 'personal_token') then l.credential_name end as app, l.action from ${latest}`,
		),
	])
	const people = new Map(members.map((m) => [m.userId, m.name]))
	for (const r of recent) if (r.id && !people.has(r.id)) people.set(r.id, r.name)
	const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b))
	return {
		people: [...people].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
		apps: sorted(recent.flatMap((r) => (r.app ? [r.app] : []))),
		actions: sorted([...deps.registry.tools.map((t) => t.name), ...recent.map((r) => r.action)]),
	}
}

export type ExportFormat = 'csv' | 'ndjson'

const COLUMNS = ['at', 'kind', 'action', 'outcome', 'person', 'personId', 'through', 'app', 'records', 'job', 'criteria', 'address'] as const
const EXPORT_BATCH = 1000

function exported(row: AuditRow) {
	return {
		at: row.at.toISOString(),
		kind: row.kind,
		action: row.action,
		outcome: row.outcome,
		person: row.actorName,
		personId: row.actorUserId,
		through: row.credentialKind,
		app: row.credentialName,
		records: row.recordIds,
		job: row.jobId,
		criteria: row.criteria,
		address: row.address,
	}
}

/**
 * The trail between two instants, oldest first, as CSV (a header line; lists joined by spaces,
 * criteria as JSON; written by `csvRows`, so no cell is one a spreadsheet would run) or NDJSON (one
 * object a line). Read a batch at a time, so an export of years holds one batch in memory.
 */
export async function* exportAudit(deps: AppDeps, workspaceId: string, filters: AuditFilters, format: ExportFormat): AsyncGenerator<string> {
	await flushAudit(deps)
	if (format === 'csv') yield csvRows([COLUMNS])
	let after: { at: Date; seq: number } | undefined
	for (;;) {
		const rows = await deps.db
			.select()
			.from(auditLog)
			.where(
				and(
					...conditions(workspaceId, filters),
					after ? sql`(${auditLog.at}, ${auditLog.seq}) > (${after.at.toISOString()}::timestamptz, ${after.seq})` : undefined,
				),
			)
			.orderBy(auditLog.at, auditLog.seq)
			.limit(EXPORT_BATCH)
		if (!rows.length) return
		const lines = rows.map(exported)
		yield format === 'ndjson'
			? lines.map((l) => `${JSON.stringify(l)}\n`).join('')
			: csvRows(
					lines.map((l) =>
						COLUMNS.map((c) => (c === 'records' ? l.records.join(' ') : c === 'criteria' ? (l.criteria ? JSON.stringify(l.criteria) : '') : l[c])),
					),
				)
		const last = rows[rows.length - 1]!
		after = { at: last.at, seq: last.seq }
		if (rows.length < EXPORT_BATCH) return
	}
}

const PRUNE_BATCH = 5000

/**
 * Deletes lines older than `AUDIT_RETENTION_DAYS`, a batch at a time (each a short statement on the
 * `at` index, so writers never wait behind one long delete), but never a line a workspace must keep
 * longer (the `audit:keep` port: a federal contractor's searches for its hold period). Returns how many went.
 */
export async function pruneAudit(deps: AppDeps): Promise<number> {
	const now = deps.now()
	const cutoff = new Date(now.getTime() - deps.config.settings.of(auditSettings).retentionDays * 86_400_000)
	// Per workspace, the earliest "keep since" any contribution asks for, when earlier than the cutoff.
	const longer = new Map<string, Date>()
	for (const source of contributionsTo(deps.registry, auditKeepPort))
		for (const [workspaceId, since] of await source.keepSince(deps, now))
			if (since < cutoff && since < (longer.get(workspaceId) ?? cutoff)) longer.set(workspaceId, since)
	const kept = JSON.stringify([...longer].map(([workspace_id, since]) => ({ workspace_id, since: since.toISOString() })))
	let removed = 0
	for (;;) {
		const gone = await deps.database.rows<{ id: string }>(
			sql`delete from audit_log where id in (select l.id from audit_log l where l.at < ${cutoff.toISOString()}::timestamptz
				and not exists (select 1 from jsonb_to_recordset(${kept}::jsonb) as k(workspace_id text, since timestamptz) where k.workspace_id = l.workspace_id and l.at >= k.since)
				limit ${PRUNE_BATCH}) returning id`,
		)
		removed += gone.length
		if (gone.length < PRUNE_BATCH) return removed
	}
}
