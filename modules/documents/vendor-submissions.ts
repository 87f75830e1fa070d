/**
 * The candidates submitted to one vendor, newest first, keyset-paged (the vendor's page shows the
 * newest few, `/vendors/<id>/submissions` all of them: `vendor-submission-pages.ts`).
 *
 * Rules: people who may see vendors see their submissions (the vendor page's permission); the
 * document kinds sent only with `documents:read`, as on the application. Delivery is the state of
 * the e-mail to the vendor: queued (waiting or retrying), sent, or failed.
 */
import { textOf } from '../../core/untrusted.ts'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { keysetPage, newestFirst } from '../../core/paging.ts'
import type { AppDeps } from '../../core/deps.ts'
import { candidateCards } from '../candidates/index.ts'
import { jobLabels } from '../jobs/index.ts'
import { deliveryOutcome, deliveryStates } from '../outbox/index.ts'
import type { DocumentKind, VendorFacts } from '../vendors/index.ts'
import { vendorSubmissions } from './table.ts'
import { inList } from '../../core/sql-list.ts'

export type Delivery = 'queued' | 'sent' | 'failed'

export interface VendorSubmissionLine {
	id: string
	applicationId: string
	candidate: { id: string; name: string }
	job: { id: string; title: string }
	submittedAt: string
	submittedBy: string
	delivery: Delivery
	/** Only for people who may see documents. */
	documents?: DocumentKind[]
}

interface Row {
	id: string
	applicationId: string
	candidateId: string
	jobId: string
	outboxId: string | null
	documents: string[]
	submittedByName: string
	submittedAt: Date | string
}

export async function vendorSubmissionList(
	deps: AppDeps,
	actor: Actor,
	vendorId: string,
	input: { limit: number; cursor?: string },
): Promise<{ submissions: VendorSubmissionLine[]; nextCursor: string | null }> {
	const scope = `vendor_submissions:${actor.userId}:${vendorId}`
	const { rows: page, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		// Without `nulls last`: the indexes on submitted_at are plain descending ones.
		order: newestFirst<Row>(sql`s.submitted_at`, sql`s.id`, (r) => r.submittedAt, {}),
		from: sql`select s.id, s.application_id as "applicationId", s.candidate_id as "candidateId", s.job_id as "jobId", s.outbox_id as "outboxId", s.documents, s.submitted_by_name as "submittedByName", s.submitted_at as "submittedAt"
		from ${vendorSubmissions} s`,
		where: [sql`s.vendor_id = ${vendorId} and s.workspace_id = ${actor.workspaceId}`],
	})
	const [cards, titles, states] = await Promise.all([
		candidateCards(
			deps,
			actor,
			page.map((r) => r.candidateId),
		),
		jobLabels(deps, actor, [...new Set(page.map((r) => r.jobId))]),
		deliveryStates(
			deps.db,
			page.flatMap((r) => (r.outboxId ? [r.outboxId] : [])),
		),
	])
	const seesDocuments = deps.permissions.can(actor, 'documents:read')
	return {
		submissions: page.map((r) => {
			const state = r.outboxId ? states.get(r.outboxId)?.status : undefined
			const line: VendorSubmissionLine = {
				id: r.id,
				applicationId: r.applicationId,
				candidate: { id: r.candidateId, name: textOf(cards.get(r.candidateId)?.name) },
				job: { id: r.jobId, title: textOf(titles.get(r.jobId)) },
				submittedAt: new Date(r.submittedAt).toISOString(),
				submittedBy: r.submittedByName,
				delivery: deliveryOutcome(state),
			}
			if (seesDocuments) line.documents = r.documents as DocumentKind[]
			return line
		}),
		nextCursor,
	}
}

/** How many candidates were submitted to each vendor of the actor's workspace, and when last (`vendorFacts`; `vendorIds` is never empty). */
export async function vendorSubmissionFacts(deps: AppDeps, actor: Actor, vendorIds: string[]): Promise<Map<string, VendorFacts>> {
	const rows = await deps.database.rows<{ vendorId: string; count: number; last: Date | string | null }>(
		sql`select vendor_id as "vendorId", count(*)::int as count, max(submitted_at) as last from ${vendorSubmissions}
		where workspace_id = ${actor.workspaceId} and vendor_id in ${inList(vendorIds)} group by vendor_id`,
	)
	return new Map(rows.map((r) => [r.vendorId, { submissionCount: Number(r.count), lastSubmittedAt: r.last }]))
}
