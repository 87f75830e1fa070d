/**
 * Open jobs read page by page (keyset, never offset) for the feeds and the sitemap, so that a
 * workspace of 100,000 jobs is streamed a page at a time and never held in memory.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { JOB_COLUMNS, type JobRow, toDate } from './rows.ts'
import { jobs } from './table.ts'

export const FEED_PAGE = 500

/** What changes whenever a public list of a workspace's open jobs would: for ETag / Last-Modified. */
export interface OpenJobsVersion {
	open: number
	/** The latest change to any of the workspace's jobs (a close or re-open is one), or null without jobs. */
	lastChange: Date | null
	/**
	 * A digest of every open job's id and last change (their count and the sum of a 64-bit hash of
	 * each: no sort and no long string, so a 304 stays cheap at 100,000 jobs). The latest change alone cannot tell every change:
	 * a write whose transaction began earlier can commit after a later one (its `updated_at` below the
	 * maximum already seen), and the embedded database's clock moves in whole milliseconds.
	 */
	digest: string
}

export async function openJobsVersion(deps: AppDeps, workspaceId: string): Promise<OpenJobsVersion> {
	const [row] = await deps.database.rows<{ open: number | string; last: Date | string | null; digest: string }>(
		sql`select count(*) filter (where status = 'Open') as open, max(updated_at) as last,
			count(*) filter (where status = 'Open') || ':' || coalesce(sum(hashtextextended(id || '@' || updated_at::text, 0)) filter (where status = 'Open'), 0) as digest
		from ${jobs} where workspace_id = ${workspaceId}`,
	)
	const last = row?.last ?? null
	return {
		open: Number(row?.open ?? 0),
		lastChange: last === null ? null : last instanceof Date ? last : new Date(last),
		digest: row?.digest ?? '',
	}
}

/** A workspace's open jobs, newest published first, `FEED_PAGE` at a time. */
export async function* openJobPages(deps: AppDeps, workspaceId: string): AsyncGenerator<JobRow[]> {
	let after: { at: string; id: string } | null = null
	for (;;) {
		const rows: (JobRow & { cursorAt: string })[] = await deps.database.rows<JobRow & { cursorAt: string }>(
			sql`select ${JOB_COLUMNS}, j.published_at::text as "cursorAt" from ${jobs} j
			where j.workspace_id = ${workspaceId} and j.status = 'Open'
			${after ? sql`and (j.published_at, j.id) < (${after.at}::timestamptz, ${after.id})` : sql``}
			order by j.published_at desc nulls last, j.id desc nulls last limit ${FEED_PAGE}`,
		)
		if (rows.length) yield rows
		if (rows.length < FEED_PAGE) return
		const last = rows[rows.length - 1]!
		after = { at: last.cursorAt, id: last.id }
	}
}

export interface SitemapJob {
	id: string
	slug: string
	workspaceSlug: string
	updatedAt: Date | string
}

export async function countAllOpenJobs(deps: AppDeps): Promise<number> {
	const [row] = await deps.database.rows<{ n: number | string }>(sql`select count(*) as n from ${jobs} where status = 'Open'`)
	return Number(row?.n ?? 0)
}

/**
 * The latest change that can alter a run of open jobs (by id) without touching a job still in it:
 * closing (or unpublishing) a job at or before the run's last id moves every later job down a place,
 * and in the final run any job that left shrinks it. A run's Last-Modified is the later of this and
 * its own jobs' last change, so it never goes back when a job leaves (a crawler's If-Modified-Since
 * got a 304 for a sitemap that had lost a job). `lastId` null: the final run (or the whole list).
 */
const leftBefore = (lastId: SQL | null) =>
	sql`(select max(g.updated_at) from ${jobs} g where g.status <> 'Open'${lastId === null ? sql`` : sql` and g.id <= ${lastId}`})`

/**
 * What a sitemap file shows of the open jobs from the `skip`-th (by id), at most `limit` (every one
 * when absent): a digest of their ids, addresses and last changes (its ETag), and the latest change
 * (theirs, or a job's that left the list in a way that moved this file's jobs).
 */
export async function openJobsSitemapVersion(deps: AppDeps, skip = 0, limit?: number): Promise<{ digest: string; lastChange: Date | null }> {
	const [row] = await deps.database.rows<{ digest: string; last: Date | string | null }>(
		sql`select count(*) || ':' || coalesce(sum(hashtextextended(t.id || '@' || t.ws || '/' || t.slug || '@' || t.updated_at::text, 0)), 0) as digest,
			greatest(max(t.updated_at), ${limit === undefined ? leftBefore(null) : sql`case when count(*) < ${limit} then ${leftBefore(null)} else ${leftBefore(sql`max(t.id)`)} end`}) as last
		from (select j.id, j.slug, w.slug as ws, j.updated_at from ${jobs} j join workspaces w on w.id = j.workspace_id
			where j.status = 'Open' ${limit === undefined ? sql`` : sql`order by j.id offset ${skip} limit ${limit}`}) t`,
	)
	const last = row?.last ?? null
	return { digest: row?.digest ?? '', lastChange: last === null ? null : toDate(last) }
}

/** The last change of each run of `size` open jobs (by id), as `openJobsSitemapVersion` reads it: a sitemap index's `<lastmod>` per file. */
export async function openJobChunks(deps: AppDeps, size: number): Promise<Date[]> {
	const rows = await deps.database.rows<{ last: Date | string }>(
		sql`with runs as (select n, max(updated_at) as own, max(id) as last_id
				from (select id, updated_at, (row_number() over (order by id) - 1) / ${size} as n from ${jobs} where status = 'Open') t group by n)
			select greatest(own, case when n = (select max(n) from runs) then ${leftBefore(null)} else ${leftBefore(sql`runs.last_id`)} end) as last
			from runs order by n`,
	)
	return rows.map((r) => toDate(r.last))
}

/** Every workspace's open jobs by id, from the `skip`-th, at most `limit`, `FEED_PAGE` at a time. */
export async function* allOpenJobPages(deps: AppDeps, skip: number, limit: number): AsyncGenerator<SitemapJob[]> {
	const [first] = await deps.database.rows<{ id: string }>(sql`select id from ${jobs} where status = 'Open' order by id offset ${skip} limit 1`)
	if (!first) return
	let after: string | null = null
	let left = limit
	while (left > 0) {
		const rows: SitemapJob[] = await deps.database.rows<SitemapJob>(
			sql`select j.id, j.slug, w.slug as "workspaceSlug", j.updated_at as "updatedAt" from ${jobs} j join workspaces w on w.id = j.workspace_id
			where j.status = 'Open' and ${after === null ? sql`j.id >= ${first.id}` : sql`j.id > ${after}`}
			order by j.id limit ${Math.min(FEED_PAGE, left)}`,
		)
		if (rows.length) yield rows
		if (rows.length < Math.min(FEED_PAGE, left)) return
		left -= rows.length
		after = rows[rows.length - 1]!.id
	}
}
