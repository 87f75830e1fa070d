/**
 * Demo candidates and applications: ~300 candidates with résumé texts, ~600 applications across
 * the pipeline (with the real résumé check), ratings, notes and screening answers. Deterministic:
 * ids derive from the workspace, and seeding twice inserts nothing new.
 */
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { fileStore } from '../../core/files.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { daysAgo, seededId, seededRandom, type SeededRandom } from '../../core/seed-random.ts'
import { textPdf } from '../../core/text-pdf.ts'
import { listPeople } from '../auth/index.ts'
import { jobQuestionsOf, ROLE_TEMPLATES, workspaceJobs, type JobQuestion } from '../jobs/index.ts'
import { checkResume } from './resume-check.ts'
import { demoCandidate, WITHOUT_SPONSORSHIP } from './seed-data.ts'
import { DEFAULT_STAGES, ensureStages } from './stages.ts'
import { applicationAnswers, applications, candidates, notes, ratings } from './table.ts'

export const DEMO_CANDIDATES = 300

const NOTES = [
	'Strong communicator; walked through a recent migration clearly.',
	'Rate expectations are above the client’s range; discuss before submitting.',
	'Available in two weeks; prefers hybrid.',
	'Client feedback: solid on fundamentals, wants more cloud depth.',
	'Referred by a placed consultant; prioritise.',
	'Needs sponsorship transfer; check timelines with the vendor.',
]

const familyOf = (title: string) => ROLE_TEMPLATES.find((t) => t.title === title)?.family ?? 'other'

/** The demo candidates' ids, in order (the bench demo data refers to them). */
export const demoCandidateId = (ws: WorkspaceRef, i: number) => seededId('cand', ws.id, `cand-${i}`)

/** The demo résumé as a one-page PDF (the demo's PDF writer knows ASCII: dashes and bullets become ASCII). */
const resumePdf = (text: string) =>
	textPdf(
		text
			.replace(/[–—]/g, '-')
			.replace(/•/g, '*')
			.normalize('NFKD')
			.replace(/[\u0300-\u036f]/g, '')
			.split('\n'),
	)

/** Stores the demo résumés as files, as the apply form does (under names derived from the ids: seeding twice rewrites the same files). */
async function storeDemoResumes(deps: AppDeps, files: { key: string; text: string }[]) {
	const store = fileStore(deps.config)
	for (let i = 0; i < files.length; i += 20) await Promise.all(files.slice(i, i + 20).map((f) => store.put(f.key, resumePdf(f.text), 'application/pdf')))
}

interface DemoRows {
	applications: (typeof applications.$inferInsert)[]
	answers: (typeof applicationAnswers.$inferInsert)[]
	ratings: (typeof ratings.$inferInsert)[]
	notes: (typeof notes.$inferInsert)[]
}

/** One demo application of a candidate to a job, with its answers, ratings and note (the random choices in a fixed order). */
function demoApplication(
	rows: DemoRows,
	rnd: SeededRandom,
	{ ws, now, people, questions }: { ws: WorkspaceRef; now: Date; people: string[]; questions: Map<string, JobQuestion[]> },
	{ c, id, i, createdDaysAgo }: { c: ReturnType<typeof demoCandidate>; id: string; i: number; createdDaysAgo: number },
	job: Awaited<ReturnType<typeof workspaceJobs>>[number],
	k: number,
) {
	const appId = seededId('app', ws.id, `app-${i}-${k}`)
	const stage = weightedStage(rnd.next())
	const outcome = stage === 'hired' ? 'hired' : stage !== 'offer' && rnd.chance(0.15) ? 'rejected' : rnd.chance(0.04) ? 'withdrawn' : null
	const kind = job.status === 'Draft' || rnd.chance(0.15) ? 'lead' : 'applicant'
	const check = checkResume(c.resumeText, job.mustHave, now)
	// Never before the job opened (nor before the candidate was added): a candidate older than the
	// job applied on some day of the job's life.
	const jobDays = Math.max(0, Math.floor((now.getTime() - job.openedAt.getTime()) / 86_400_000) - 1)
	const near = Math.max(0, createdDaysAgo - rnd.int(0, 20))
	const appliedDaysAgo = near <= jobDays ? near : rnd.int(0, jobDays)
	rows.applications.push({
		id: appId,
		workspaceId: ws.id,
		candidateId: id,
		jobId: job.id,
		stageKey: stage,
		outcome,
		archived: outcome !== null && outcome !== 'hired' && rnd.chance(0.6),
		kind,
		shortlist: stage !== 'applied' && rnd.chance(0.4) ? 'shortlisted' : rnd.chance(0.08) ? 'declined' : 'none',
		resumeCheck: check as unknown as Record<string, unknown>,
		resumeScore: check.score,
		source: kind === 'lead' ? 'sourced' : c.source,
		createdAt: daysAgo(appliedDaysAgo, k),
		updatedAt: daysAgo(Math.max(0, appliedDaysAgo - 2), k),
		stageChangedAt: daysAgo(Math.max(0, appliedDaysAgo - rnd.int(0, 10)), k),
	})
	if (kind === 'applicant')
		for (const q of questions.get(job.id) ?? [])
			rows.answers.push({
				applicationId: appId,
				questionId: q.id,
				answer:
					q.kind === 'yes_no'
						? WITHOUT_SPONSORSHIP.includes(c.workAuthorization)
							? 'yes'
							: 'no'
						: `${Math.max(1, c.years - rnd.int(0, 3))} years; most recently at my current role.`,
			})
	if (people.length && stage !== 'applied')
		for (const [r, userId] of rnd.sample(people, rnd.int(1, Math.min(2, people.length))).entries())
			rows.ratings.push({
				id: seededId('rat', ws.id, `${appId}-${r}`),
				applicationId: appId,
				userId,
				score: Math.min(5, Math.max(1, Math.round((check.score ?? 50) / 25) + rnd.int(0, 1))),
				comment: rnd.chance(0.5)
					? rnd.pick(['Good depth on the must-haves.', 'Communication could be sharper.', 'Strong match for this client.', 'Light on recent hands-on work.'])
					: null,
				createdAt: daysAgo(Math.max(0, appliedDaysAgo - 1), r),
			})
	if (people.length && rnd.chance(0.4))
		rows.notes.push({
			id: seededId('note', ws.id, appId),
			workspaceId: ws.id,
			candidateId: id,
			applicationId: appId,
			authorUserId: rnd.pick(people),
			body: rnd.pick(NOTES),
			visibility: rnd.chance(0.25) ? 'private' : 'shared',
			createdAt: daysAgo(Math.max(0, appliedDaysAgo - 1), 30 + k),
		})
}

export async function seedCandidates(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	// The demo's candidates, applications, answers, ratings and notes are made once: made again after the
	// workspace changed (someone joined, a job was added), the same random choices fall differently,
	// and a second set of applications would land beside the first.
	const [seeded] = await deps.db
		.select({ id: candidates.id })
		.from(candidates)
		.where(eq(candidates.id, demoCandidateId(ws, 0)))
	if (seeded) return
	const rnd = seededRandom(`candidates:${ws.id}`)
	await ensureStages(deps.db, ws.id)
	const people = (await listPeople(deps.db, ws.id)).map((p) => p.userId).sort()
	const jobs = await workspaceJobs(deps, ws.id)
	const byFamily = new Map<string, typeof jobs>()
	for (const j of jobs) byFamily.set(familyOf(j.title), [...(byFamily.get(familyOf(j.title)) ?? []), j])
	const questions = new Map(await Promise.all(jobs.map(async (j) => [j.id, await jobQuestionsOf(deps, j.id)] as const)))
	const now = deps.now()

	const candidateRows = []
	const rows: DemoRows = { applications: [], answers: [], ratings: [], notes: [] }
	for (let i = 0; i < DEMO_CANDIDATES; i++) {
		const template = ROLE_TEMPLATES[i % ROLE_TEMPLATES.length]!
		// The first candidate of each role family is its model candidate (seed-data.ts).
		const c = demoCandidate(rnd, i, template, { model: i < ROLE_TEMPLATES.length })
		const id = demoCandidateId(ws, i)
		const createdDaysAgo = 180 - Math.floor((i * 180) / DEMO_CANDIDATES)
		candidateRows.push({
			id,
			workspaceId: ws.id,
			name: c.name,
			email: c.email,
			phone: c.phone,
			location: c.location,
			headline: c.headline,
			skills: c.skills,
			workAuthorization: c.workAuthorization,
			yearsExperience: c.years,
			resumeFileName: `${c.name.replace(/\W+/g, '_')}_Resume.pdf`,
			resumeMime: 'application/pdf',
			resumePath: `resumes/${ws.id}/${id}.pdf`,
			resumeText: c.resumeText,
			source: c.source,
			ownerUserId: people.length ? people[i % people.length]! : null,
			createdAt: daysAgo(createdDaysAgo, i),
			updatedAt: daysAgo(Math.max(0, createdDaysAgo - 5), i),
		})
		if (!jobs.length) continue
		const count = rnd.chance(0.3) ? 1 : rnd.chance(0.64) ? 2 : 3
		const own = byFamily.get(template.family) ?? []
		const picked = new Set<(typeof jobs)[number]>()
		for (let k = 0; k < count; k++) picked.add(k < own.length && rnd.chance(0.8) ? own[(i + k) % own.length]! : rnd.pick(jobs))
		let k = 0
		for (const job of picked) {
			demoApplication(rows, rnd, { ws, now, people, questions }, { c, id, i, createdDaysAgo }, job, k)
			k++
		}
	}
	await storeDemoResumes(
		deps,
		candidateRows.map((c) => ({ key: c.resumePath, text: c.resumeText })),
	)
	for (let i = 0; i < candidateRows.length; i += 100)
		await deps.db
			.insert(candidates)
			.values(candidateRows.slice(i, i + 100))
			.onConflictDoNothing()
	for (let i = 0; i < rows.applications.length; i += 100)
		await deps.db
			.insert(applications)
			.values(rows.applications.slice(i, i + 100))
			.onConflictDoNothing()
	for (let i = 0; i < rows.answers.length; i += 200)
		await deps.db
			.insert(applicationAnswers)
			.values(rows.answers.slice(i, i + 200))
			.onConflictDoNothing()
	if (rows.ratings.length) await deps.db.insert(ratings).values(rows.ratings).onConflictDoNothing()
	if (rows.notes.length) await deps.db.insert(notes).values(rows.notes).onConflictDoNothing()
}

/** applied 35 %, screening 25 %, submitted 15 %, client interview 12 %, offer 6 %, hired 7 %. */
function weightedStage(x: number): string {
	const weights = [0.35, 0.25, 0.15, 0.12, 0.06, 0.07]
	let sum = 0
	for (let i = 0; i < weights.length; i++) if (x < (sum += weights[i]!)) return DEFAULT_STAGES[i]!.key
	return 'hired'
}
