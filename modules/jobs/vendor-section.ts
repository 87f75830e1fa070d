/**
 * What the jobs module tells about vendors: how many jobs each has (merged into the vendor
 * directory through the vendors module's `vendorFacts` port), and the vendor page's list of its open jobs (a page section).
 * They live here because jobs are this module's rows: the vendors module, which this one
 * requires, cannot read them.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { html } from '../../core/html.ts'
import { keysetPage, newestFirst } from '../../core/paging.ts'
import type { PageSection } from '../../core/module.ts'
import { dataTable, pager, when } from '../../core/ui.ts'
import type { VendorFacts } from '../vendors/index.ts'
import { jobs } from './table.ts'
import { inList } from '../../core/sql-list.ts'
import { isoInstantOrNull } from '../../core/time.ts'

/** Open and all jobs per vendor of the actor's workspace (`vendorIds` is never empty). */
export async function vendorJobFacts(deps: AppDeps, actor: Actor, vendorIds: string[]): Promise<Map<string, VendorFacts>> {
	const rows = await deps.database.rows<{ vendorId: string; open: number; all: number }>(
		sql`select vendor_id as "vendorId", count(*) filter (where status = 'Open')::int as open, count(*)::int as all from ${jobs}
		where workspace_id = ${actor.workspaceId} and vendor_id in ${inList(vendorIds)} group by vendor_id`,
	)
	return new Map(rows.map((r) => [r.vendorId, { openJobCount: Number(r.open), jobCount: Number(r.all) }]))
}

export interface VendorJob {
	id: string
	title: string
	location: string | null
	vendorJobId: string | null
	publishedAt: string | null
}

/**
 * A vendor's open jobs, newest first, keyset-paged. Everyone who may see vendors sees every job of
 * the workspace (hiring managers and viewers have no vendor pages), so no further limit applies.
 */
export async function vendorOpenJobs(
	deps: AppDeps,
	actor: Actor,
	vendorId: string,
	input: { limit: number; cursor?: string },
): Promise<{ jobs: VendorJob[]; nextCursor: string | null }> {
	const scope = `vendor_jobs:${actor.userId}:${vendorId}`
	const { rows, nextCursor } = await keysetPage(deps, {
		scope,
		cursor: input.cursor,
		limit: input.limit,
		order: newestFirst<VendorJob & { createdAt: Date | string }>(sql`j.created_at`, sql`j.id`, (r) => r.createdAt),
		from: sql`select j.id, j.title, j.location, j.vendor_job_id as "vendorJobId", j.published_at as "publishedAt", j.created_at as "createdAt" from ${jobs} j`,
		where: [sql`j.vendor_id = ${vendorId} and j.workspace_id = ${actor.workspaceId} and j.status = 'Open'`],
	})
	return {
		jobs: rows.map((r) => ({
			id: r.id,
			title: r.title,
			location: r.location,
			vendorJobId: r.vendorJobId,
			publishedAt: isoInstantOrNull(r.publishedAt),
		})),
		nextCursor,
	}
}

/** The vendor page's open jobs, ten at a time (`?jobs=` is the next page's cursor). */
export const vendorJobsSection: PageSection = {
	page: 'vendor',
	order: 10,
	permission: 'vendors:read',
	async render(deps, session, vendorId, context) {
		const cursor = context?.query?.jobs
		const open = await vendorOpenJobs(deps, session.actor, vendorId, { limit: 10, cursor })
		return html`<section class="card" id="jobs" aria-labelledby="jobs-h"><h2 id="jobs-h">Open jobs</h2>
${dataTable<VendorJob>({
	caption: 'Open jobs of this vendor',
	hideCaption: true,
	rows: open.jobs,
	empty: cursor ? 'No more open jobs.' : 'This vendor has no open job.',
	columns: [
		{ label: 'Job', cell: (j) => html`<a href="/jobs/${j.id}">${j.title}</a>` },
		{ label: 'Vendor’s reference', cell: (j) => j.vendorJobId ?? '—' },
		{ label: 'Location', cell: (j) => j.location ?? '—' },
		{ label: 'Published', cell: (j) => when(j.publishedAt) },
	],
})}
${pager({ base: `/vendors/${vendorId}`, next: open.nextCursor, first: !cursor, param: 'jobs' })}</section>`
	},
}
