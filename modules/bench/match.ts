/**
 * Bench people ranked by match to a job, with the reasons for each place.
 *
 * Score (0–100) = 60 × share of the job's must-haves the résumé meets (the résumé check)
 *               + 15 × share of nice-to-haves met
 *               + 15 when the person is on the bench of the job's role family
 *               + 10 when available now or within 14 days (5 within 30 days).
 * Ties go to the candidate id (byte order), so pages are stable.
 *
 * The ranking is one SQL statement over the stored checks (`bench_checks`: per person, what their
 * résumé meets, requirement by requirement, for a résumé hash and a check basis; a changed résumé
 * deletes them in its own transaction, so a stored check is the current résumé's). The résumé check
 * runs in the app only for what is not stored yet or no longer valid (a new requirement, a changed
 * résumé, a new month), and is stored before ranking. Matching the whole bench in the app on each
 * view cost 0.4–0.9 s for a job not recently ranked at a bench of 5,000 (bench/README.md).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { idKey, integerKey, keysetPage, type Order } from '../../core/paging.ts'
import { checkItems, prepareResume, RESUME_CHECK_VERSION, resumeHash, resumeHashSql, resumeTexts, type PreparedResume } from '../candidates/index.ts'
import { jobAuthor, jobRequirements, reachableJobIds, recentOpenRequirements, type JobRequirements } from '../jobs/index.ts'
import { jobFamily, type RoleFamily } from './family.ts'
import { BENCH_COLUMNS, benchViews, type BenchRow } from './service.ts'
import { lockUntilCommit } from '../../db/client.ts'

/** `any(<ids>)`: one array parameter, whatever the number of ids. */
const anyOf = (ids: readonly string[]) => sql`any(${sql.param([...ids])}::text[])`

/** A Map that forgets its oldest entries beyond `size`. */
function bounded<V>(size: number) {
	const map = new Map<string, V>()
	return {
		get: (key: string) => map.get(key),
		set(key: string, value: V) {
			if (map.size >= size) map.delete(map.keys().next().value!)
			map.set(key, value)
		},
	}
}

// About 10 KB per read résumé: a new requirement is checked against the whole bench at once.
export const RESUME_CACHE_SIZE = 4_000
const resumes = bounded<PreparedResume>(RESUME_CACHE_SIZE)

const DAY = 86_400_000
/** Availability points: 10 up to this many days ahead, 5 up to the next. */
const SOON_DAYS = 14
const LATER_DAYS = 30

function availability(from: string | null, now: Date): string {
	const days = from ? Math.ceil((Date.parse(`${from}T00:00:00Z`) - now.getTime()) / DAY) : 0
	if (days <= 0) return 'available now'
	if (days <= LATER_DAYS) return `available from ${from} (in ${days} days)`
	return `not available until ${from}`
}

/** Checked ahead, with a job's own requirements: those of this many newest open jobs, at most `max`. */
const AHEAD = { jobs: 200, max: 300 }

/** The check basis: stored checks of another method version or month are checked again. */
const basisOf = (now: Date) => `${RESUME_CHECK_VERSION}:${now.toISOString().slice(0, 7)}`

/**
 * Stores the checks of the given people against the requirements (merged into what is stored for
 * the same résumé and basis; replacing it otherwise). Each résumé is read and prepared once.
 */
async function storeChecks(deps: AppDeps, workspaceId: string, people: { id: string; hash: string }[], requirements: string[], basis: string, now: Date) {
	const resumeKey = (p: { id: string; hash: string }) => `${p.id}:${p.hash}`
	// Taken from the shared cache once, up front: a bench larger than the cache evicts entries while
	// this pass adds others, and one gone by the time it is used would be checked as an empty résumé.
	const cached = new Map(people.map((p) => [p.id, resumes.get(resumeKey(p))]))
	const texts = await resumeTexts(
		deps,
		workspaceId,
		people.filter((p) => !cached.get(p.id)).map((p) => p.id),
	)
	// A résumé read now is stored with its own hash (it may have changed since `people` was read):
	// the checks are then valid for the résumé they were made on, and a later change shows as stale.
	const hashes = people.map((p) => (cached.get(p.id) ? p.hash : resumeHash(texts.get(p.id) ?? null)))
	const numbers = await requirementNumbers(deps, workspaceId, requirements)
	const size = Math.max(0, ...numbers.values())
	const byNumber = people.map((p, i) => {
		let resume = cached.get(p.id)
		if (!resume) resumes.set(resumeKey({ id: p.id, hash: hashes[i]! }), (resume = prepareResume(texts.get(p.id) ?? null, now)))
		const slots = new Array<number>(size).fill(0)
		for (const c of checkItems(resume, requirements)) slots[numbers.get(c.requirement)! - 1] = c.status === 'met' ? 2 : 1
		return `{${slots.join(',')}}`
	})
	// Stored only for a résumé still current (its hash), the person's row locked for share: a résumé
	// change either waits for this write (and then deletes what it stored) or is seen by it. Checks of
	// the same résumé and basis are merged (element by element, the larger of 0, 1, 2: the same
	// résumé and basis never give a requirement both 1 and 2).
	await deps.database.rows(
		sql`insert into bench_checks (candidate_id, workspace_id, resume_hash, basis, checks)
select x.id, ${workspaceId}, x.hash, ${basis}, x.checks::smallint[]
from unnest(${sql.param(people.map((p) => p.id))}::text[], ${sql.param(hashes)}::text[], ${sql.param(byNumber)}::text[]) x(id, hash, checks)
join candidates c on c.id = x.id and ${resumeHashSql('c')} = x.hash
for share of c
on conflict (candidate_id) do update set
checks = case when bench_checks.resume_hash = excluded.resume_hash and bench_checks.basis = excluded.basis
  then array(select greatest(coalesce(o, 0), coalesce(n, 0))::smallint from unnest(bench_checks.checks, excluded.checks) with ordinality t(o, n, i) order by i)
  else excluded.checks end,
resume_hash = excluded.resume_hash, basis = excluded.basis`,
	)
}

/**
 * The numbers of requirement texts in a workspace (`bench_requirements`), new ones numbered after
 * the last: one at a time per workspace (a transaction-scoped advisory lock), so numbers never clash.
 */
async function requirementNumbers(deps: AppDeps, workspaceId: string, requirements: string[]): Promise<Map<string, number>> {
	const list = sql.param([...new Set(requirements)])
	const rows = await deps.db.transaction(async (tx) => {
		await lockUntilCommit(tx, `bench_requirements:${workspaceId}`)
		await deps.database.rows(
			sql`insert into bench_requirements (workspace_id, requirement, ordinal)
select ${workspaceId}, n.r, (select coalesce(max(q.ordinal), 0) from bench_requirements q where q.workspace_id = ${workspaceId}) + row_number() over (order by n.r)
from (select r from unnest(${list}::text[]) r where not exists (select 1 from bench_requirements q where q.workspace_id = ${workspaceId} and q.requirement = r)) n`,
			tx,
		)
		return deps.database.rows<{ requirement: string; ordinal: number }>(
			sql`select requirement, ordinal from bench_requirements where workspace_id = ${workspaceId} and requirement = any(${list}::text[])`,
			tx,
		)
	})
	return new Map(rows.map((r) => [r.requirement, Number(r.ordinal)]))
}

interface RankedRow {
	/** The candidate's id. */
	id: string
	score: number
	rank: number
	total: number
	current: boolean
}

/** Best score first, ties to the candidate id byte-wise: the ranking's order and its cursor (score, id). */
const RANK_ORDER: Order<RankedRow> = {
	keys: [integerKey<RankedRow>(sql`r.score`, (r) => r.score, { desc: true }), idKey<RankedRow>(sql`r.id`, { bytewise: true })],
}

type BenchJob = JobRequirements & { family: RoleFamily }

/** The job, when the actor can reach it: its requirements and role family. */
async function benchJob(deps: AppDeps, actor: Actor, jobId: string): Promise<BenchJob> {
	const reach = await reachableJobIds(deps, actor, [jobId])
	const job = (await jobRequirements(deps, actor.workspaceId, [jobId])).get(jobId)
	if (!job || (reach !== 'all' && !reach.includes(jobId))) throw new AppError('NOT_FOUND', 'No job with this id')
	return { ...job, family: jobFamily(job.title, job.mustHave) }
}

const requirementsOf = (job: BenchJob) => [...new Set([...job.mustHave, ...job.niceToHave])]

/**
 * The ranking in SQL. A stored check is valid while it exists (a changed résumé deletes it, in the
 * transaction that changes it: bench migration 0002) and has this basis and every requirement: the
 * ranking reads no résumé and no list of the bench's ids or hashes (5,000 of each, and 5,000
 * résumés hashed, on each view before).
 */
function rankingSql(workspaceId: string, job: BenchJob, now: Date) {
	const requirements = requirementsOf(job)
	const bench = sql`select b.candidate_id as id, bool_or(b.role_family = ${job.family}) as on_family, bool_or(b.available_from is null) as any_now, min(b.available_from) as earliest
  from bench_entries b where b.workspace_id = ${workspaceId} group by b.candidate_id`
	// A requirement's check by its number (0: not checked; the number is read once per statement).
	const slot = (r: string) =>
		sql`coalesce(k.checks[(select q.ordinal from bench_requirements q where q.workspace_id = ${workspaceId} and q.requirement = ${r})], 0)`
	const current = sql.join([sql`k.basis = ${basisOf(now)}`, ...requirements.map((r) => sql`${slot(r)} > 0`)], sql` and `)
	// A requirement met counts once per time the job lists it, as the résumé check counts it.
	const metCount = (list: readonly string[]) => sql.join([sql`0`, ...list.map((r) => sql`(${slot(r)} = 2)::int`)], sql` + `)
	// Available within `days` (the JS rule: ceil((start − now) / day) ≤ days, no start meaning now): the start day's midnight (UTC) at most `days` days from now.
	const soon = (days: number) =>
		sql`(e.any_now or (e.earliest::timestamp at time zone 'UTC') <= ${new Date(now.getTime() + days * DAY).toISOString()}::timestamptz)`
	// The score in float8, in the order the terms were always added, rounded half up like Math.round.
	// Each person's checks are read by key and reduced to three values at once (a hash join carried
	// every person's checks into a 12 MB hash), and scored in a materialized CTE: the
	// ranking's sort carries three columns (with the checks, it spilled 6.5 MB to disk).
	const score = sql`floor(60 * ${job.mustHave.length ? sql`(coalesce(x.must_met, 0)::float8 / ${job.mustHave.length}::float8)` : sql`1::float8`}
    + 15 * ${job.niceToHave.length ? sql`(coalesce(x.nice_met, 0)::float8 / ${job.niceToHave.length}::float8)` : sql`0::float8`}
    + case when e.on_family then 15 else 0 end
    + case when ${soon(SOON_DAYS)} then 10 when ${soon(LATER_DAYS)} then 5 else 0 end + 0.5)::int`
	const page = (after: SQL | undefined, order: SQL, size: number) => sql`with e as (${bench}),
s as materialized (select e.id, coalesce(x.current, false) as current, ${score} as score
  from e left join lateral (select ${current} as current, ${metCount(job.mustHave)} as must_met, ${metCount(job.niceToHave)} as nice_met
    from bench_checks k where k.candidate_id = e.id) x on true),
r as (select s.id, s.score, row_number() over (order by s.score desc, s.id collate "C")::int as rank, count(*) over ()::int as total, bool_and(s.current) over () as all_current from s)
select r.id, r.score, r.rank, r.total, r.all_current as current from r
${after ? sql`where ${after}` : sql``}
order by ${order} limit ${size}`
	const stale = sql`select e.id, ${resumeHashSql('c')} as hash from (select distinct b.candidate_id as id from bench_entries b where b.workspace_id = ${workspaceId}) e
join candidates c on c.id = e.id left join bench_checks k on k.candidate_id = e.id
where not coalesce(${current}, false)`
	return { page, stale }
}

/**
 * Checks and stores the bench people whose checks are missing or no longer valid. While the
 * résumés are at hand, they are checked against the newest open jobs' requirements too: the jobs
 * opened next then find their checks stored (requirements recur across jobs).
 */
async function refreshStaleChecks(deps: AppDeps, workspaceId: string, job: BenchJob, stale: SQL, now: Date) {
	const people = await deps.database.rows<{ id: string; hash: string }>(stale)
	const ahead = await recentOpenRequirements(deps, workspaceId, AHEAD)
	await storeChecks(deps, workspaceId, people, [...new Set([...requirementsOf(job), ...ahead])], basisOf(now), now)
}

/** The bench entries of the page's people, and the job's requirements each of them meets. */
async function pageDetails(deps: AppDeps, workspaceId: string, job: BenchJob, ids: string[]) {
	if (!ids.length) return { entries: [] as BenchRow[], met: new Map<string, Record<string, boolean>>() }
	const [entries, checks] = await Promise.all([
		deps.database.rows<BenchRow>(
			sql`select ${BENCH_COLUMNS} from bench_entries b where b.workspace_id = ${workspaceId} and b.candidate_id = ${anyOf(ids)} order by b.added_at, b.id`,
		),
		// The page's people's checks of the job's requirements, by the requirements' numbers.
		deps.database.rows<{ id: string; requirement: string }>(
			sql`select k.candidate_id as id, q.requirement from bench_checks k join bench_requirements q on q.workspace_id = ${workspaceId} and q.requirement = any(${sql.param(requirementsOf(job))}::text[])
where k.candidate_id = ${anyOf(ids)} and k.checks[q.ordinal] = 2`,
		),
	])
	const met = new Map<string, Record<string, boolean>>()
	for (const r of checks) met.set(r.id, { ...met.get(r.id), [r.requirement]: true })
	return { entries, met }
}

/**
 * One person's place: what they meet of the job and the reasons, in our words only (read by people
 * and models alike, no field names); the requirements themselves are listed beside them
 * (`missing`, `niceToHavesMet`), labelled as the job's text.
 */
export function benchPlace(
	job: Pick<BenchJob, 'id' | 'mustHave' | 'niceToHave' | 'family'>,
	entries: readonly BenchRow[],
	met: Readonly<Record<string, boolean>>,
	now: Date,
) {
	const match = {
		mustMet: job.mustHave.filter((r) => met[r]).length,
		mustTotal: job.mustHave.length,
		missing: job.mustHave.filter((r) => !met[r]),
		niceMet: job.niceToHave.filter((r) => met[r]),
		niceTotal: job.niceToHave.length,
	}
	const families = [...new Set(entries.map((e) => e.roleFamily))]
	const onFamily = entries.find((e) => e.roleFamily === job.family)
	const earliest = entries.map((e) => e.availableFrom).sort((a, b) => (a ?? '').localeCompare(b ?? ''))[0] ?? null
	const reasons = [
		match.mustTotal ? `meets ${match.mustMet} of ${match.mustTotal} must-haves` : 'the job lists no must-haves',
		...(match.niceTotal ? [`${match.niceMet.length} of ${match.niceTotal} nice-to-haves`] : []),
		onFamily ? `on the ${job.family} bench, the job’s role family` : `on the ${families.join(', ')} bench; the job looks like ${job.family}`,
		availability(earliest, now),
		...(entries.some((e) => e.jobId === job.id) ? ['added to the bench for this job'] : []),
	]
	return { entry: onFamily ?? entries[0]!, families, match, reasons }
}

export async function jobBench(deps: AppDeps, actor: Actor, input: { jobId: string; limit: number; cursor?: string }) {
	const job = await benchJob(deps, actor, input.jobId)
	const now = deps.now()
	const ranking = rankingSql(actor.workspaceId, job, now)
	const rank = () =>
		keysetPage<RankedRow>(deps, {
			scope: `get_job_bench:${actor.userId}:${input.jobId}`,
			cursor: input.cursor,
			limit: input.limit,
			order: RANK_ORDER,
			read: (after, order, size) => deps.database.rows<RankedRow>(ranking.page(after, order, size)),
		})
	let page = await rank()
	// Some people's checks are missing or no longer valid: check them, store, and rank again (again
	// if a résumé changed meanwhile: its checks were then not stored).
	for (let pass = 0; pass < 3 && page.rows.some((r) => !r.current); pass++) {
		await refreshStaleChecks(deps, actor.workspaceId, job, ranking.stale, now)
		page = await rank()
	}
	const details = await pageDetails(
		deps,
		actor.workspaceId,
		job,
		page.rows.map((p) => p.id),
	)
	const places = page.rows.map((p) => ({
		...p,
		...benchPlace(
			job,
			details.entries.filter((e) => e.candidateId === p.id),
			details.met.get(p.id) ?? {},
			now,
		),
	}))
	const views = await benchViews(
		deps,
		actor,
		places.map((p) => p.entry),
	)
	const by = jobAuthor(job, actor)
	const requirement = (text: string) => untrustedLine(text, by, 300)
	return {
		job: { id: job.id, title: untrustedLine(job.title, by, 200), roleFamily: job.family },
		bench: places.map((p, i) => ({
			rank: p.rank,
			score: p.score,
			benchEntryId: p.entry.id,
			candidate: views[i]!.candidate,
			roleFamilies: p.families,
			skills: views[i]!.skills,
			availableFrom: p.entry.availableFrom,
			hourlyRate: p.entry.hourlyRate,
			mustHavesMet: p.match.mustMet,
			mustHavesTotal: p.match.mustTotal,
			missing: p.match.missing.map(requirement),
			niceToHavesMet: p.match.niceMet.map(requirement),
			reasons: p.reasons,
		})),
		nextCursor: page.nextCursor,
	}
}
