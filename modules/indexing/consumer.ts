/**
 * The search engines' event consumer: a job page that went live, changed or came back is queued as
 * `updated`, one taken down as `deleted`, for each search engine that is configured; in the events'
 * transaction, so each event is queued once whatever the number of instances. A change to a job that
 * is not live (a draft) announces nothing: its page does not exist. Nothing is sent from here.
 */
import { sql } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import { workspacesById } from '../auth/index.ts'
import type { EventConsumer, StoredEvent } from '../events/index.ts'
import { jobRefs, jobUrl } from '../jobs/index.ts'
import { indexingSettings } from './settings.ts'
import { indexingNotices } from './table.ts'

export type IndexingTarget = 'indexnow' | 'google'
export type IndexingAction = 'updated' | 'deleted'

/** The search engines this instance announces to (those whose settings are given). */
export function configuredTargets(deps: Pick<AppDeps, 'config'>): IndexingTarget[] {
	const settings = deps.config.settings.of(indexingSettings)
	return [...(settings.indexNowKey ? (['indexnow'] as const) : []), ...(settings.googleAccount ? (['google'] as const) : [])]
}

/** What an event means for the job's public page, or null when its page is not concerned. */
export function actionOf(event: Pick<StoredEvent, 'type' | 'data'>): IndexingAction | null {
	if (event.type === 'job.closed') return 'deleted'
	if (event.type === 'job.published' || event.type === 'job.reopened') return 'updated'
	if (event.type === 'job.changed') return event.data.status === 'Open' ? 'updated' : null
	return null
}

export const indexingConsumer: EventConsumer = {
	name: 'indexing',
	description: 'Queues the job pages to announce to search engines (IndexNow, the Google Indexing API)',
	types: ['job.published', 'job.changed', 'job.closed', 'job.reopened'],
	async handle(deps: AppDeps, tx: Db, events: readonly StoredEvent[]) {
		const targets = configuredTargets(deps)
		if (!targets.length) return
		// The latest action per job wins (a job published then closed in one batch is announced deleted).
		const latest = new Map<string, { workspaceId: string; action: IndexingAction }>()
		for (const event of events) {
			const action = actionOf(event)
			if (action) latest.set(String(event.data.jobId), { workspaceId: event.workspaceId, action })
		}
		if (!latest.size) return
		const byWorkspace = Map.groupBy([...latest], ([, notice]) => notice.workspaceId)
		const workspaces = await workspacesById(tx, [...byWorkspace.keys()])
		const rows: (typeof indexingNotices.$inferInsert)[] = []
		for (const [workspaceId, notices] of byWorkspace) {
			const workspace = workspaces.get(workspaceId)
			const refs = await jobRefs(
				deps,
				workspaceId,
				notices.map(([jobId]) => jobId),
				tx,
			)
			for (const [jobId, { action }] of notices) {
				const ref = refs.get(jobId)
				if (!workspace || !ref) continue
				const url = jobUrl(deps.config.baseUrl, workspace.slug, ref.slug)
				for (const target of targets) rows.push({ id: newId('idx'), workspaceId, target, url, action })
			}
		}
		if (!rows.length) return
		// A page already waiting takes the new action and is due at once again (its attempts start over).
		await tx
			.insert(indexingNotices)
			.values(rows)
			.onConflictDoUpdate({
				target: [indexingNotices.target, indexingNotices.url],
				set: {
					action: sql`excluded.action`,
					version: sql`${indexingNotices.version} + 1`,
					attempts: 0,
					nextAttemptAt: sql`least(${indexingNotices.nextAttemptAt}, now())`,
				},
			})
	},
}
