/**
 * Demo AI video interviews: about sixty, on applications past the first stage, with questions
 * from the job's must-haves, realistic transcripts, per-question and overall scores and verdicts.
 * Most are completed, some invited for the coming days (on the calendar), a few started, some
 * expired. Completed ones give their inviter a review to-do.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom, type SeededRandom } from '../../core/seed-random.ts'
import { listPeople } from '../auth/index.ts'
import { workspaceApplications, type ApplicationParty } from '../candidates/index.ts'
import { jobRequirements, type JobRequirements } from '../jobs/index.ts'
import { createTodo } from '../todos/index.ts'
import { questionsFor, type Verdict } from './questions.ts'
import { interviewQuestions, interviews } from './table.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

const OPENERS = [
	'In my current role',
	'At my last client, a regional bank,',
	'On a recent healthcare project',
	'For the past two years',
	'At a logistics company I worked with',
]
const STRONG = [
	'I led the design of {skill} pieces for a service handling about two million requests a day. I split the work into small releases, wrote the integration tests first and paired with QA, so we shipped without a single rollback. Looking back, I would have involved the operations team earlier.',
	'I owned the {skill} work end to end: gathering the requirements with the product owner, building it, and walking the support team through it. We cut the processing time from hours to minutes. I would document the edge cases earlier next time.',
]
const AVERAGE = [
	'I used {skill} on a project where I mostly built features that another engineer designed. It went fine; we had some issues in testing but fixed them before release. I would ask more questions up front next time.',
	'I have worked with {skill} for a while, mainly maintaining existing code and fixing defects. I am comfortable with it, though I have not set it up from scratch.',
]
const WEAK = [
	'I have read about {skill} and tried it in a small personal project, but I have not used it at work yet.',
	'Honestly {skill} was handled by another team; I only saw it from the outside.',
]
const MOTIVATION = [
	'I have spent six years building backend systems and I enjoy work where reliability matters. This role is close to what I do today, with a bigger scope, and the long-term engagement suits me.',
	'I am looking for a team where I can keep learning while delivering. The job description matches my last two projects closely, and I am available to start within two weeks.',
]
const CONFLICT = [
	'A client wanted a feature shipped before the data migration was done. I laid out the risks in writing, proposed a smaller first release, and we agreed on it together. It shipped on time without data issues.',
	'A teammate and I disagreed on an API design. We each wrote down the trade-offs, asked the architect for a second opinion and went with his version; I updated my part the same day.',
]

function answerFor(rnd: SeededRandom, competency: string, strength: number): { transcript: string; score: number } {
	if (competency === 'Motivation') return { transcript: rnd.pick(MOTIVATION), score: Math.min(100, 60 + rnd.int(0, 35)) }
	if (competency === 'Communication') return { transcript: rnd.pick(CONFLICT), score: Math.min(100, 55 + rnd.int(0, 40)) }
	const band = strength + rnd.next() * 0.4 - 0.2
	const [pool, score] = band > 0.65 ? [STRONG, 80 + rnd.int(0, 18)] : band > 0.35 ? [AVERAGE, 55 + rnd.int(0, 20)] : [WEAK, 20 + rnd.int(0, 25)]
	return { transcript: `${rnd.pick(OPENERS)} ${rnd.pick(pool).replace('{skill}', competency)}`, score }
}

const verdictOf = (score: number): Verdict => (score >= 75 ? 'recommended' : score >= 55 ? 'consider' : 'not_recommended')

/** When a demo interview of this kind was scheduled, sent and due: never before the application, never sent in the future. */
function demoTimeline(rnd: SeededRandom, kind: string, { applied, now, today }: { applied: number; now: number; today: number }) {
	// Invited ones are scheduled in business hours over the next ten days; a started one's window opened
	// in the last two days; the rest happened already, after the application came in.
	const scheduledAt =
		kind === 'invited'
			? new Date(today + rnd.int(1, 10) * DAY + rnd.int(14, 21) * HOUR)
			: kind === 'started'
				? new Date(Math.max(applied, now - rnd.int(1, 48) * HOUR))
				: new Date(Math.max(applied + DAY, now - rnd.int(3, 40) * DAY) + rnd.int(0, 6) * HOUR)
	// Never before the application, never in the future.
	const invitedAt = new Date(Math.max(applied, Math.min(scheduledAt.getTime() - rnd.int(1, 3) * DAY, now - HOUR)))
	const deadlineAt = new Date(scheduledAt.getTime() + 3 * DAY)
	return { scheduledAt, invitedAt, deadlineAt }
}

/** One demo interview of an application (its kind by its place in the sample), with its questions and, when recent, the review to-do. */
async function seedInterview(
	deps: AppDeps,
	rnd: SeededRandom,
	ws: WorkspaceRef,
	{ app, job, i, inviters, now, today }: { app: ApplicationParty; job: JobRequirements | undefined; i: number; inviters: string[]; now: number; today: number },
) {
	if (!job) return
	const id = seededId('int', ws.id, app.id)
	const owner = inviters.length ? inviters[i % inviters.length]! : null
	const applied = app.createdAt.getTime()
	// One that happened already needs an application old enough to have had it (at least five days).
	const planned = i % 10 < 6 ? 'completed' : i % 10 < 8 ? 'invited' : i % 10 < 9 ? 'expired' : 'started'
	const kind = (planned === 'completed' || planned === 'expired') && applied > now - 5 * DAY ? 'invited' : planned
	const { scheduledAt, invitedAt, deadlineAt } = demoTimeline(rnd, kind, { applied, now, today })
	const questions = questionsFor(job)
	const strength = rnd.next()
	const answers = questions.map((q) => answerFor(rnd, q.competency, strength))
	const overall = Math.round(answers.reduce((s, a) => s + a.score, 0) / answers.length)
	const completedAt = kind === 'completed' ? new Date(Math.min(scheduledAt.getTime() + rnd.int(0, 30) * HOUR, now - HOUR)) : null
	const inserted = await deps.db
		.insert(interviews)
		.values({
			id,
			workspaceId: ws.id,
			candidateId: app.candidateId,
			jobId: app.jobId,
			applicationId: app.id,
			ownerUserId: owner,
			status: kind,
			scheduledAt,
			deadlineAt: kind === 'expired' ? new Date(Math.min(deadlineAt.getTime(), now - DAY)) : deadlineAt,
			invitedAt,
			startedAt:
				kind === 'completed'
					? new Date(Math.max(scheduledAt.getTime(), completedAt!.getTime() - 25 * 60_000))
					: kind === 'started'
						? new Date(Math.max(scheduledAt.getTime(), now - 10 * 60_000))
						: null,
			completedAt,
			expiredAt: kind === 'expired' ? new Date(Math.min(deadlineAt.getTime(), now - DAY)) : null,
			overallScore: kind === 'completed' ? overall : null,
			verdict: kind === 'completed' ? verdictOf(overall) : null,
			summary:
				kind === 'completed'
					? `${app.candidate.name.split(' ')[0]} answered ${questions.length} questions. ${overall >= 75 ? 'Clear, specific examples with measurable outcomes; strong fit for the must-haves.' : overall >= 55 ? 'Relevant experience, but several answers stayed general; probe depth in a live round.' : 'Limited hands-on experience with the core must-haves.'}`
					: null,
			createdAt: invitedAt,
		})
		.onConflictDoNothing()
		.returning({ id: interviews.id })
	if (!inserted.length) return
	await deps.db.insert(interviewQuestions).values(
		questions.map((q, n) => ({
			id: seededId('iq', ws.id, `${id}:${n}`),
			interviewId: id,
			position: n + 1,
			prompt: q.prompt,
			competency: q.competency,
			transcript: kind === 'completed' ? answers[n]!.transcript : null,
			score: kind === 'completed' ? answers[n]!.score : null,
			durationSeconds: kind === 'completed' ? 60 + rnd.int(0, 120) : null,
		})),
	)
	if (kind === 'completed' && owner && completedAt && now - completedAt.getTime() < 10 * DAY)
		await createTodo(deps.db, {
			workspaceId: ws.id,
			assigneeUserId: owner,
			title: `Review the AI interview (score ${overall})`,
			candidateId: app.candidateId,
			applicationId: app.id,
			jobId: app.jobId,
			dueAt: new Date(completedAt.getTime() + DAY),
			source: 'interview',
			sourceRef: id,
		})
}

export async function seedInterviews(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const rnd = seededRandom(`interviews:${ws.id}`)
	const inviters = (await listPeople(deps.db, ws.id))
		.filter((p) => ['owner', 'admin', 'recruiter'].includes(p.role))
		.map((p) => p.userId)
		.sort()
	const apps = (await workspaceApplications(deps, ws.id)).filter((a) => a.stageKey !== 'applied')
	if (!apps.length) return
	const jobs = await jobRequirements(deps, ws.id, [...new Set(apps.map((a) => a.jobId))])
	const picked = rnd.sample(apps, Math.min(60, apps.length))
	const now = Date.now()
	const today = Math.floor(now / DAY) * DAY
	for (const [i, app] of picked.entries()) await seedInterview(deps, rnd, ws, { app, job: jobs.get(app.jobId), i, inviters, now, today })
}
