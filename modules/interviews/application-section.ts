/**
 * The AI interview results on the application page (`pageSections`, page `application`): every
 * interview of the application with its status, and for completed ones the result as
 * `get_interview_result` gives it — each question with the answer and its score, the overall score,
 * the verdict and the provider's summary. Showing a result is opening it, as with the tool: it
 * leaves the person's review queue.
 */
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { dataTable, facts, tag, when, type Tone } from '../../core/ui.ts'
import { VERDICT_LABELS, type Verdict } from './questions.ts'
import { getInterview, interviewsOfApplications, type InterviewStatus } from './service.ts'

/** Full results shown at most (newest first); older completed ones are listed by their score and verdict. */
const FULL_RESULTS = 3

interface Brief {
	id: string
	status: InterviewStatus
	overallScore: number | null
	verdict: Verdict | null
	scheduledAt: string
	deadlineAt: string
	completedAt: string | null
}

type Result = Awaited<ReturnType<typeof getInterview>>

const STATUS: Record<InterviewStatus, [string, Tone]> = {
	invited: ['Invited', 'info'],
	started: ['Started', 'info'],
	completed: ['Completed', 'good'],
	expired: ['Expired', 'neutral'],
}
const VERDICT_TONES: Record<Verdict, Tone> = { recommended: 'good', consider: 'warn', not_recommended: 'bad' }

const statusTag = (s: InterviewStatus) => tag(...STATUS[s])
const verdictTag = (v: Verdict | null) => (v ? tag(VERDICT_LABELS[v], VERDICT_TONES[v]) : '—')
const score = (n: number | null) => (n === null ? '—' : `${n} of 100`)

function result(r: Result): SafeHtml {
	return html`<article class="result" aria-labelledby="interview-${r.id}-h"><h3 id="interview-${r.id}-h">Interview of ${when(r.completedAt, { time: false })} ${statusTag(r.status)}</h3>
${facts([
	['Overall score', score(r.overallScore)],
	['Verdict', verdictTag(r.verdict)],
	['Questions answered', `${r.answeredCount} of ${r.questionCount}`],
	['Invited by', r.invitedBy?.name ?? null],
])}
${r.summary ? html`<p class="lines"><strong>Provider’s summary:</strong> ${r.summary}</p>` : ''}
${dataTable<Result['questions'][number]>({
	caption: 'Each question with the candidate’s answer and its score',
	hideCaption: true,
	columns: [
		{ label: 'Question', cell: (q) => html`${q.prompt}${q.competency ? html`<br><span class="meta">Assesses: ${q.competency}</span>` : ''}` },
		{ label: 'Answer', cell: (q) => (q.answer ? html`<span class="lines">${q.answer}</span>` : html`<span class="meta">Not answered</span>`) },
		{ label: 'Score (of 100)', numeric: true, cell: (q) => q.score ?? '—' },
	],
	rows: r.questions,
	empty: 'No questions were recorded for this interview.',
})}</article>`
}

function pending(i: Brief): SafeHtml {
	const detail =
		i.status === 'completed'
			? html`score ${score(i.overallScore)}, ${verdictTag(i.verdict)}`
			: i.status === 'expired'
				? html`the deadline ${when(i.deadlineAt)} passed`
				: html`to be taken from ${when(i.scheduledAt)}, at the latest ${when(i.deadlineAt)}`
	return html`<li>${statusTag(i.status)} AI video interview: ${detail}</li>`
}

export const interviewResultsSection: PageSection = {
	page: 'application',
	order: 10,
	permission: 'interviews:read',
	async render(deps, session, applicationId) {
		const found = await interviewsOfApplications(deps, session.actor, [applicationId])
		const all = (found.get(applicationId)?.interviews ?? []) as Brief[]
		const full = all.filter((i) => i.status === 'completed').slice(0, FULL_RESULTS)
		const results = await Promise.all(full.map((i) => getInterview(deps, session.actor, i.id)))
		const rest = all.filter((i) => !full.includes(i))
		const body = all.length
			? html`${results.map(result)}${rest.length ? html`<ul class="entries">${rest.map(pending)}</ul>` : ''}`
			: html`<p class="empty">No AI video interview for this application yet.</p>`
		return html`<section class="card" id="interviews" aria-labelledby="interviews-h"><h2 id="interviews-h">AI interview results</h2>${body}</section>`
	},
}
