/**
 * A candidate's job alerts: the careers site's alerts asked for with their e-mail address (the
 * subscriber has no account; the address is what ties an alert to a person). Exported with their
 * data and deleted when they are erased (the `candidates:data` port).
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import type { CandidateDataSource, CandidateSubject } from '../candidates/index.ts'
import { alertsOf, deleteAlertsOf } from './alerts.ts'

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

export const jobAlertsData: CandidateDataSource = {
	key: 'jobAlerts',
	tables: ['job_alerts'],
	async export(deps, db, s) {
		const alerts = await alertsOf(db, s.workspaceId, await emailsOf(deps, db, s))
		return {
			data: alerts.map((a) => ({
				id: a.id,
				email: a.email,
				search: { q: a.q, location: a.location, remote: a.remote, type: a.type },
				status: a.status,
				createdAt: a.createdAt.toISOString(),
				confirmedAt: a.confirmedAt?.toISOString() ?? null,
				lastSentAt: a.lastSentAt?.toISOString() ?? null,
			})),
		}
	},
	async erase(deps, tx, s) {
		await deleteAlertsOf(tx, s.workspaceId, await emailsOf(deps, tx, s))
		return undefined
	},
}
