/**
 * This module's part of a candidate's data: the profile and résumé, the applications with their
 * stages, answers and ratings, and the notes about them. Erased last (the other modules' rows point
 * at these).
 */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { emailSpellings } from '../../core/email.ts'
import { eraseMentions, nameForms, withoutMentionsIn } from '../../core/erased-text.ts'
import { afterKeys, orderBy } from '../../core/paging.ts'
import { folded } from '../../core/text-search.ts'
import type { Db } from '../../db/client.ts'
import { forgetSavedSearchMentions } from '../saved-searches/index.ts'
import type { CandidateDataSource, CandidateSubject } from './data-port.ts'
import { anyId } from './reach.ts'

const extension = (name: string | null) => /\.([A-Za-z0-9]{1,8})$/.exec(name ?? '')?.[1]?.toLowerCase() ?? 'bin'

/** The same phone number for two candidates: the same digits, a North American one with or without its leading 1. */
const phoneDigits = (column: SQL) => sql`regexp_replace(regexp_replace(${column}, '[^0-9]', '', 'g'), '^1([0-9]{10})$', '\\1')`

/**
 * The surname (the name's last word, and each part of a double-barrelled one) when it is
 * distinctive: three letters or more, and found in no other candidate's name of the workspace
 * (in any case, also inside a longer name, as search reads both: folded, so Øberg is Oberg's too). It alone is replaced where people type searches.
 */
async function distinctiveSurnames(deps: AppDeps, db: Db, workspaceId: string, candidateId: string, name: string): Promise<string[]> {
	const words = name.trim().split(/\s+/)
	if (words.length < 2) return []
	const last = words.at(-1)!
	const parts = [...new Set([last, ...last.split('-')])].filter((p) => /^\p{L}[\p{L}'’-]{2,}$/u.test(p))
	if (!parts.length) return []
	const rows = await deps.database.rows<{ part: string }>(
		sql`select p as part from unnest(${sql.param(parts)}::text[]) p where not exists (select 1 from candidates o
			where o.workspace_id = ${workspaceId} and o.id <> ${candidateId} and strpos(lower(${folded(sql`o.name`)}), lower(${folded(sql`p`)})) > 0)`,
		db,
	)
	return rows.map((r) => r.part)
}

/**
 * The person's applications, read before anything is erased (the subject every source receives),
 * and what is replaced wherever free text names them: their name (with its file-name form, as in
 * an attachment's name) unless another candidate of the workspace has the same name (as search reads
 * it: Tomas is Tomás, since the erasure finds the name as search does, core/erased-text.ts), and their
 * e-mail address and phone number (in any of its written forms) unless another candidate still
 * holds it (the same address is then theirs too, and what is filed under it may be theirs); in
 * searches, also their distinctive surname alone.
 */
export async function candidateSubject(deps: AppDeps, db: Db, workspaceId: string, candidateId: string): Promise<CandidateSubject | null> {
	const others = sql`from candidates o where o.workspace_id = c.workspace_id and o.id <> c.id`
	const [c] = await deps.database.rows<{
		name: string
		email: string
		phone: string | null
		apps: string[]
		nameShared: boolean
		emailShared: boolean
		phoneShared: boolean
	}>(
		sql`select c.name, c.email, c.phone, array(select a.id from applications a where a.candidate_id = c.id order by a.created_at, a.id) as apps,
				exists (select 1 ${others} and lower(${folded(sql`o.name`)}) = lower(${folded(sql`c.name`)})) as "nameShared",
				exists (select 1 ${others} and lower(trim(o.email)) = lower(trim(c.email))) as "emailShared",
				exists (select 1 ${others} and ${phoneDigits(sql`o.phone`)} = ${phoneDigits(sql`c.phone`)} and ${phoneDigits(sql`c.phone`)} <> '') as "phoneShared"
			from candidates c where c.id = ${candidateId} and c.workspace_id = ${workspaceId}`,
		db,
	)
	if (!c) return null
	const usable = (values: (string | null)[]) => [...new Set(values.filter((n): n is string => Boolean(n && n.trim().length >= 3)))]
	// The address in each spelling search finds it by: stored with its domain in ASCII, typed in Unicode (ann@bücher.example).
	const email = emailSpellings(c.email)
	const ownNeedles = usable([...nameForms(c.name), ...email, c.phone])
	const needles = usable([...(c.nameShared ? [] : nameForms(c.name)), ...(c.emailShared ? [] : email), c.phoneShared ? null : c.phone])
	const searchNeedles = usable([...needles, ...(c.nameShared ? [] : await distinctiveSurnames(deps, db, workspaceId, candidateId, c.name))])
	return { workspaceId, candidateId, name: c.name, applicationIds: c.apps, needles, ownNeedles, searchNeedles }
}

export const candidatesData: CandidateDataSource = {
	key: 'candidate',
	tables: ['candidates', 'applications', 'application_answers', 'ratings', 'notes'],
	freeText: ['notes.body', 'ratings.comment', 'application_answers.answer', 'saved_searches.name', 'saved_searches.query', 'saved_searches.filters'],
	async export(deps, db, s) {
		const [profile] = await deps.database.rows<Record<string, unknown> & { resumePath: string | null; resumeFileName: string | null }>(
			sql`select id, name, email, phone, location, headline, skills, work_authorization as "workAuthorization", years_experience as "yearsExperience",
				source, resume_file_name as "resumeFileName", resume_mime as "resumeMime", resume_path as "resumePath", resume_text as "resumeText",
				created_at as "createdAt", updated_at as "updatedAt"
			from candidates where id = ${s.candidateId} and workspace_id = ${s.workspaceId}`,
			db,
		)
		const ids = anyId(s.applicationIds)
		const [applications, answers, ratings, notes] = await Promise.all([
			deps.database.rows(
				sql`select a.id, a.job_id as "jobId", j.title as "jobTitle", a.kind, a.stage_key as stage, a.outcome, a.archived, a.shortlist, a.source,
					a.resume_score as "resumeScore", a.resume_check as "resumeCheck", a.resume_file_name as "resumeFileName", a.resume_path as "resumePath",
					a.created_at as "createdAt", a.stage_changed_at as "stageChangedAt", a.updated_at as "updatedAt", ${STAGE_MOVES} as "stageHistory"
				from applications a join jobs j on j.id = a.job_id where a.id = ${ids} order by a.created_at, a.id`,
				db,
			),
			deps.database.rows(
				sql`select x.application_id as "applicationId", q.prompt as question, x.answer from application_answers x join job_questions q on q.id = x.question_id
				where x.application_id = ${ids} order by x.application_id, q.position`,
				db,
			),
			deps.database.rows(
				sql`select r.id, r.application_id as "applicationId", u.name as "by", r.score, r.comment, r.created_at as "createdAt"
				from ratings r join users u on u.id = r.user_id where r.application_id = ${ids} order by r.created_at, r.seq`,
				db,
			),
			deps.database.rows(
				sql`select n.id, n.application_id as "applicationId", u.name as author, n.visibility, n.body, n.created_at as "createdAt"
				from notes n join users u on u.id = n.author_user_id where n.candidate_id = ${s.candidateId} order by n.created_at, n.seq`,
				db,
			),
		])
		const { resumePath, ...rest } = profile!
		// The résumés sent with applications (a candidate already on file keeps their own): each is a file of the export.
		const sentWith = (applications as { id: string; resumePath: string | null; resumeFileName: string | null }[]).filter((a) => a.resumePath)
		return {
			data: {
				profile: rest,
				applications: applications.map(({ resumePath: _, ...a }) => ({
					...a,
					answers: answers.filter((x) => x.applicationId === a.id).map(({ applicationId: _, ...x }) => x),
					ratings: ratings.filter((r) => r.applicationId === a.id).map(({ applicationId: _, ...r }) => r),
				})),
				notes,
			},
			files: [
				...(resumePath ? [{ key: resumePath, name: `resume.${extension(rest.resumeFileName)}` }] : []),
				...sentWith.map((a) => ({ key: a.resumePath!, name: `resume-${a.id}.${extension(a.resumeFileName)}` })),
			],
		}
	},
	async erase(deps, tx, s) {
		const ids = anyId(s.applicationIds)
		const [c] = await deps.database.rows<{ resumePath: string | null }>(sql`select resume_path as "resumePath" from candidates where id = ${s.candidateId}`, tx)
		const sentWith = await deps.database.rows<{ resumePath: string }>(
			sql`select resume_path as "resumePath" from applications where id = ${ids} and resume_path is not null`,
			tx,
		)
		await deps.database.rows(sql`delete from ratings where application_id = ${ids}`, tx)
		await deps.database.rows(sql`delete from application_answers where application_id = ${ids}`, tx)
		await deps.database.rows(sql`delete from notes where candidate_id = ${s.candidateId} or application_id = ${ids}`, tx)
		await deps.database.rows(sql`delete from applications where id = ${ids}`, tx)
		await deps.database.rows(sql`delete from candidates where id = ${s.candidateId} and workspace_id = ${s.workspaceId}`, tx)
		// What colleagues and other applicants wrote on other records ("referred by …"), and the searches people saved.
		const workspaceApps = sql`application_id in (select id from applications where workspace_id = ${s.workspaceId})`
		await eraseMentions(deps.database, tx, [
			withoutMentionsIn('notes', ['body'], sql`workspace_id = ${s.workspaceId}`, s.needles),
			withoutMentionsIn('ratings', ['comment'], workspaceApps, s.needles),
			withoutMentionsIn('application_answers', ['answer'], workspaceApps, s.needles),
		])
		await forgetSavedSearchMentions(tx, s.workspaceId, s.searchNeedles)
		return { files: [...(c?.resumePath ? [c.resumePath] : []), ...sentWith.map((a) => a.resumePath)] }
	},
}

/** The workspace a candidate belongs to (the operator's CLI names only the candidate), or null. */
export async function candidateWorkspace(deps: AppDeps, candidateId: string): Promise<{ id: string; slug: string } | null> {
	const [row] = await deps.database.rows<{ id: string; slug: string }>(
		sql`select w.id, w.slug from candidates c join workspaces w on w.id = c.workspace_id where c.id = ${candidateId}`,
	)
	return row ?? null
}

/** An application as an anonymous applicant-flow record keeps it: the job, the dates, the stages it went through and the outcome. */
export interface ApplicantFlowRow {
	applicationId: string
	jobId: string
	kind: string
	appliedAt: Date
	stage: string
	outcome: string | null
	stageChangedAt: Date
	/** Each move between stages, oldest first (from the activity log). */
	stages: { from: string; to: string; at: string }[]
}

/** The moves of application `a` between stages, oldest first, from the activity log: `[{from, to, at}]` (jsonb). */
const STAGE_MOVES = sql`coalesce((select jsonb_agg(jsonb_build_object('from', x.detail->>'from', 'to', x.detail->>'to', 'at', x.at) order by x.at, x.seq)
	from activity x where x.target_type = 'application' and x.target_id = a.id and x.action = 'application.stage_changed'), '[]'::jsonb)`

export async function applicantFlowOf(deps: AppDeps, db: Db, s: CandidateSubject): Promise<ApplicantFlowRow[]> {
	return deps.database.rows<ApplicantFlowRow>(
		sql`select a.id as "applicationId", a.job_id as "jobId", a.kind, a.created_at as "appliedAt", a.stage_key as stage, a.outcome, a.stage_changed_at as "stageChangedAt",
			${STAGE_MOVES} as stages
		from applications a where a.id = ${anyId(s.applicationIds)} and a.workspace_id = ${s.workspaceId} order by a.created_at, a.id`,
		db,
	)
}

/** The order `inactiveCandidates` pages in (core/paging.ts keys): least recently changed first. */
const INACTIVE_ORDER = [{ expr: sql`c.updated_at` }, { expr: sql`c.id` }]

/** Where a page of `inactiveCandidates` ended: the next page starts after it. */
export interface InactiveCursor {
	updatedAt: string
	id: string
}

/**
 * Candidates of a workspace with no activity since `before`: no change to their profile, to an
 * application of theirs (a stage move, an outcome) and no note about them. Oldest first, at most
 * `limit`, after `after` (keyset on the order), with the cursor of the page's last one.
 */
export async function inactiveCandidates(
	deps: AppDeps,
	workspaceId: string,
	before: Date,
	limit: number,
	after?: InactiveCursor,
): Promise<{ ids: string[]; last: InactiveCursor | null }> {
	const cutoff = sql`${before.toISOString()}::timestamptz`
	const rows = await deps.database.rows<{ id: string; updatedAt: string }>(
		sql`select c.id, c.updated_at::text as "updatedAt" from candidates c where c.workspace_id = ${workspaceId} and c.updated_at < ${cutoff} and c.created_at < ${cutoff}
			${after ? sql`and ${afterKeys(INACTIVE_ORDER, [sql`${after.updatedAt}::timestamptz`, sql`${after.id}`])}` : sql``}
			and not exists (select 1 from applications a where a.candidate_id = c.id and greatest(a.updated_at, a.stage_changed_at, a.created_at) >= ${cutoff})
			and not exists (select 1 from notes n where n.candidate_id = c.id and n.created_at >= ${cutoff})
		order by ${orderBy(INACTIVE_ORDER)} limit ${limit}`,
	)
	const last = rows[rows.length - 1]
	return { ids: rows.map((r) => r.id), last: last ? { updatedAt: last.updatedAt, id: last.id } : null }
}
