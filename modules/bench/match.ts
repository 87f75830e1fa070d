/**
 * Bench people ranked by match to a job, with the reasons for each place.
 *
 * Score (0–100) = 60 × share of the job's must-haves the résumé meets (the résumé check)
 *               + 15 × share of nice-to-haves met
 *               + 15 when the person is on the bench of the job's role family
 *               + 10 when available now or within 14 days (5 within 30 days).
 * Ties go to the candidate id, so pages are stable. Two bounded in-process caches keep a large
 * bench cheap to rank: read résumés (per candidate and résumé hash, shared by every job) and match
 * results (per candidate, résumé hash and job requirements). A changed résumé has a new hash, so
 * nothing stale is ever used.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { untrustedLine } from '../../core/untrusted.ts'
import { decodeCursor, encodeCursor } from '../../core/cursor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { checkItems, prepareResume, resumeHashes, resumeTexts, type PreparedResume } from '../candidates/index.ts'
import { jobAuthor, jobRequirements, reachableJobIds } from '../jobs/index.ts'
import { jobFamily } from './family.ts'
import { BENCH_COLUMNS, benchViews, type BenchRow } from './service.ts'

interface Match {
	mustMet: number
	mustTotal: number
	missing: string[]
	niceMet: string[]
	niceTotal: number
}

/** A Map that forgets its oldest entries beyond `size`. */
function bounded<V>(size: number) {
	const map = new Map<string, V>()
	return {
		get: (key: string) => map.get(key),
		has: (key: string) => map.has(key),
		set(key: string, value: V) {
			if (map.size >= size) map.delete(map.keys().next().value!)
			map.set(key, value)
		},
	}
}

// About 10 KB per read résumé; match results are a few hundred bytes.
export const RESUME_CACHE_SIZE = 4_000
const resumes = bounded<PreparedResume>(RESUME_CACHE_SIZE)
const cache = bounded<Match>(50_000)

const DAY = 86_400_000

function availability(from: string | null, now: Date): { points: number; reason: string } {
	const days = from ? Math.ceil((Date.parse(`${from}T00:00:00Z`) - now.getTime()) / DAY) : 0
	if (days <= 0) return { points: 10, reason: 'available now' }
	if (days <= 14) return { points: 10, reason: `available from ${from} (in ${days} days)` }
	if (days <= 30) return { points: 5, reason: `available from ${from} (in ${days} days)` }
	return { points: 0, reason: `not available until ${from}` }
}

export async function jobBench(deps: AppDeps, actor: Actor, input: { jobId: string; limit: number; cursor?: string }) {
	const reach = await reachableJobIds(deps, actor, [input.jobId])
	const job = (await jobRequirements(deps, actor.workspaceId, [input.jobId])).get(input.jobId)
	if (!job || (reach !== 'all' && !reach.includes(input.jobId))) throw new AppError('NOT_FOUND', 'No job with this id')
	const family = jobFamily(job.title, job.mustHave)
	const now = deps.now()
	const rows = await deps.database.rows<BenchRow>(sql`select ${BENCH_COLUMNS} from bench_entries b where b.workspace_id = ${actor.workspaceId} order by b.added_at, b.id`)
	const people = new Map<string, BenchRow[]>()
	for (const r of rows) people.set(r.candidateId, [...(people.get(r.candidateId) ?? []), r])

	const requirementsKey = createHash('md5').update(JSON.stringify([job.mustHave, job.niceToHave])).digest('hex')
	const hashes = await resumeHashes(deps, actor.workspaceId, [...people.keys()])
	const keyOf = (id: string) => `${id}:${hashes.get(id) ?? ''}:${requirementsKey}`
	// What this pass uses is taken from the shared caches once, up front, and kept here: a bench larger
	// than a cache (or another ranking meanwhile) evicts entries while the pass adds others, and an
	// entry gone by the time it is used was matched as an empty résumé (its text never read) or not found.
	const matches = new Map([...people.keys()].map((id) => [id, cache.get(keyOf(id))]))
	const misses = [...matches].filter(([, m]) => !m).map(([id]) => id)
	const resumeKeyOf = (id: string) => `${id}:${hashes.get(id) ?? ''}`
	const prepared = new Map(misses.map((id) => [id, resumes.get(resumeKeyOf(id))]))
	const texts = await resumeTexts(deps, actor.workspaceId, misses.filter((id) => !prepared.get(id)))
	for (const id of misses) {
		let resume = prepared.get(id)
		if (!resume) resumes.set(resumeKeyOf(id), (resume = prepareResume(texts.get(id) ?? null, now)))
		const must = checkItems(resume, job.mustHave)
		const nice = checkItems(resume, job.niceToHave)
		const match = { mustMet: must.filter((m) => m.status === 'met').length, mustTotal: must.length, missing: must.filter((m) => m.status !== 'met').map((m) => m.requirement), niceMet: nice.filter((n) => n.status === 'met').map((n) => n.requirement), niceTotal: nice.length }
		cache.set(keyOf(id), match)
		matches.set(id, match)
	}

	const ranked = [...people.entries()].map(([candidateId, entries]) => {
		const m = matches.get(candidateId)!
		const onFamily = entries.find((e) => e.roleFamily === family)
		const earliest = entries.map((e) => e.availableFrom).sort((a, b) => (a ?? '').localeCompare(b ?? ''))[0] ?? null
		const avail = availability(earliest, now)
		const score = Math.round(60 * (m.mustTotal ? m.mustMet / m.mustTotal : 1) + 15 * (m.niceTotal ? m.niceMet.length / m.niceTotal : 0) + (onFamily ? 15 : 0) + avail.points)
		// Our words only: the requirements themselves are listed beside them (missing, niceToHavesMet), labelled.
		const reasons = [
			m.mustTotal ? `meets ${m.mustMet} of ${m.mustTotal} must-haves${m.missing.length ? ' (see missing)' : ''}` : 'the job lists no must-haves',
			...(m.niceTotal ? [`${m.niceMet.length} of ${m.niceTotal} nice-to-haves${m.niceMet.length ? ' (see niceToHavesMet)' : ''}`] : []),
			onFamily ? `on the ${family} bench, the job’s role family` : `on the ${[...new Set(entries.map((e) => e.roleFamily))].join(', ')} bench; the job looks like ${family}`,
			avail.reason,
			...(entries.some((e) => e.jobId === input.jobId) ? ['added to the bench for this job'] : []),
		]
		return { candidateId, entry: onFamily ?? entries[0]!, families: [...new Set(entries.map((e) => e.roleFamily))], score, match: m, reasons }
	})
	ranked.sort((a, b) => b.score - a.score || a.candidateId.localeCompare(b.candidateId))

	const scope = `get_job_bench:${actor.userId}:${input.jobId}`
	let start = 0
	if (input.cursor) {
		const [score, id] = decodeCursor(deps.secret, scope, input.cursor, 2)
		start = ranked.findIndex((r) => r.score < Number(score) || (r.score === Number(score) && r.candidateId > id!))
		if (start < 0) start = ranked.length
	}
	const page = ranked.slice(start, start + input.limit)
	const views = await benchViews(deps, actor, page.map((p) => p.entry))
	const last = page[page.length - 1]
	const by = jobAuthor(job)
	const requirement = (text: string) => untrustedLine(text, by, 300)
	return {
		job: { id: job.id, title: untrustedLine(job.title, by, 200), roleFamily: family },
		bench: page.map((p, i) => ({
			rank: start + i + 1,
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
		nextCursor: start + page.length < ranked.length && last ? encodeCursor(deps.secret, scope, [String(last.score), last.candidateId]) : null,
	}
}
