/**
 * Job alerts as personal data: the careers site's alerts asked for with an e-mail address (the
 * subscriber has no account; the address is what ties an alert to a person). A candidate's are
 * exported with their data and deleted when they are erased (the `candidates:data` port); and since
 * most subscribers never applied, the address's own privacy request finds, sends and erases them
 * too (the `privacy:address-data` port).
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import type { CandidateDataSource, CandidateSubject } from '../candidates/index.ts'
import type { AddressDataSource } from '../privacy/index.ts'
import { ALERT_ERASED, alertCounts, alertsOf, deleteAlertsOf, type JobAlert } from './alerts.ts'

/** The candidate's e-mail address, read before the candidates module erases its row (it erases last). */
async function emailsOf(deps: AppDeps, db: Db, s: CandidateSubject): Promise<string[]> {
	// Alerts belong to an address, not a candidate: one another candidate also has is not theirs alone,
	// so it is neither exported with them nor erased with them (as for conversations filed by address).
	const rows = await deps.database.rows<{ email: string }>(
		sql`select c.email from candidates c where c.id = ${s.candidateId} and c.workspace_id = ${s.workspaceId}
			and not exists (select 1 from candidates o where o.workspace_id = c.workspace_id and o.id <> c.id and lower(trim(o.email)) = lower(trim(c.email)))`,
		db,
	)
	return rows.map((r) => r.email).filter(Boolean)
}

/** An alert as exported: pending ones too (they hold the address as well). */
const exported = (a: JobAlert) => ({
	id: a.id,
	email: a.email,
	search: { q: a.q, location: a.location, remote: a.remote, type: a.type },
	status: a.status,
	createdAt: a.createdAt.toISOString(),
	confirmedAt: a.confirmedAt?.toISOString() ?? null,
	lastSentAt: a.lastSentAt?.toISOString() ?? null,
})

export const jobAlertsData: CandidateDataSource = {
	key: 'jobAlerts',
	tables: ['job_alerts'],
	async export(deps, db, s) {
		return { data: (await alertsOf(db, s.workspaceId, await emailsOf(deps, db, s))).map(exported) }
	},
	async erase(deps, tx, s) {
		await deleteAlertsOf(tx, s.workspaceId, await emailsOf(deps, tx, s), ALERT_ERASED)
		return undefined
	},
}

/** The alerts of an address that asked for its data or its erasure (a privacy request), candidate or not. */
export const jobAlertsByAddress: AddressDataSource = {
	key: 'jobAlerts',
	noun: 'job alert',
	tables: ['job_alerts'],
	count: (_deps, db, workspaceId, emails) => alertCounts(db, workspaceId, emails),
	async export(_deps, db, workspaceId, email) {
		return (await alertsOf(db, workspaceId, [email])).map(exported)
	},
	async erase(_deps, tx, workspaceId, email) {
		await deleteAlertsOf(tx, workspaceId, [email], ALERT_ERASED)
	},
}
