/** The interviews pages: the list (`/interviews`, by status) and one interview with its answers and scores. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { dataTable, facts, pageHeader, pager, selectField, when } from '../../core/ui.ts'
import { VERDICT_LABELS } from './questions.ts'
import { scoreText, STATUS_LABELS, statusTag, verdictTag } from './labels.ts'
import { STATUSES, type getInterview, type InterviewStatus, type InterviewSummary } from './service.ts'

export function interviewListPage(
	deps: AppDeps,
	session: PageSession,
	view: { status?: InterviewStatus; interviews: InterviewSummary[]; nextCursor: string | null; paged: boolean },
): Response {
	const base = view.status ? `/interviews?status=${view.status}` : '/interviews'
	const which = view.status ? `${STATUS_LABELS[view.status].toLowerCase()} ` : ''
	return portalPage(
		deps,
		session,
		{ title: view.status ? `Interviews: ${STATUS_LABELS[view.status]}` : 'Interviews', current: '/interviews' },
		html`${pageHeader({ title: 'AI video interviews', meta: session.actor.role === 'hiring_manager' ? 'The interviews for the jobs on your hiring teams, newest first.' : 'Newest first.' })}
<form method="get" action="/interviews" class="filters card">
${selectField({ id: 'status', label: 'Status', value: view.status ?? '', options: [['', 'Any status'], ...STATUSES.map((s) => [s, STATUS_LABELS[s]] as const)] })}
<button type="submit">Show</button></form>
<section class="card" aria-labelledby="list"><h2 id="list" class="visually-hidden">Interviews</h2>
${dataTable<InterviewSummary>({
	caption: view.status ? `${STATUS_LABELS[view.status]} interviews` : 'Interviews',
	hideCaption: true,
	rows: view.interviews,
	empty: view.paged ? `No more ${which}interviews.` : `No ${which}interviews${view.status ? '' : ' yet'}: a recruiter invites a candidate from an application.`,
	columns: [
		{ label: 'Candidate', cell: (i) => html`<a href="/interviews/${i.id}">${i.candidate.name || 'A candidate'}</a>` },
		{ label: 'Job', cell: (i) => html`<a href="/jobs/${i.job.id}">${i.job.title}</a>` },
		{ label: 'Invited', cell: (i) => when(i.invitedAt) },
		{ label: 'Score', numeric: true, cell: (i) => scoreText(i.overallScore) },
		{ label: 'Verdict', cell: (i) => (i.verdict ? VERDICT_LABELS[i.verdict] : '—') },
		{ label: 'Status', cell: (i) => statusTag(i.status) },
	],
})}
${pager({ base, next: view.nextCursor, first: !view.paged })}</section>`,
	)
}

type Interview = Awaited<ReturnType<typeof getInterview>>

export function interviewPage(deps: AppDeps, session: PageSession, i: Interview): Response {
	const name = i.candidate.name || 'A candidate'
	const ended: [string, unknown] = i.status === 'expired' ? ['Expired', when(i.expiredAt)] : ['Completed', when(i.completedAt)]
	return portalPage(
		deps,
		session,
		{ title: `Interview of ${name}`, current: '/interviews' },
		html`${pageHeader({
			crumbs: [['/interviews', 'Interviews']],
			title: html`AI video interview of ${name}`,
			meta: html`${statusTag(i.status)} for <a href="/jobs/${i.job.id}">${i.job.title}</a>${i.applicationId ? html` · <a href="/applications/${i.applicationId}">The application</a>` : ''}`,
		})}
<section class="card verdict" aria-labelledby="verdict-h"><h2 id="verdict-h">Verdict</h2>
${facts([
	['Verdict', verdictTag(i.verdict)],
	['Overall score', scoreText(i.overallScore)],
	['Questions answered', `${i.answeredCount} of ${i.questionCount}`],
])}
${i.summary ? html`<p class="lines"><strong>The provider’s summary:</strong> ${i.summary}</p>` : i.status === 'completed' ? '' : html`<p class="meta">The verdict and scores come once the candidate has finished the interview.</p>`}</section>
<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">About this interview</h2>
${facts([
	['Candidate', html`<a href="/candidates/${i.candidate.id}">${name}</a>`],
	['Job', html`<a href="/jobs/${i.job.id}">${i.job.title}</a>`],
	['Invited by', i.invitedBy?.name ?? null],
	['Invited', when(i.invitedAt)],
	['To be taken from', when(i.scheduledAt)],
	['Deadline', when(i.deadlineAt)],
	['Started', when(i.startedAt)],
	ended,
	['Length', `${i.durationMinutes} minutes`],
])}</section>
<section class="card" aria-labelledby="questions-h"><h2 id="questions-h">Questions, answers and scores</h2>
${
	i.questions.length
		? html`<ol class="answers">${i.questions.map(
				(q) => html`<li><h3>${q.prompt}</h3>
${q.competency ? html`<p class="meta">Assesses: ${q.competency}</p>` : ''}
${q.answer ? html`<p class="lines">${q.answer}</p>` : html`<p class="empty">Not answered${i.status === 'completed' || i.status === 'expired' ? '' : ' yet'}.</p>`}
<p><strong>Score:</strong> ${scoreText(q.score)}${q.durationSeconds !== null ? html` <span class="meta">· answered in ${q.durationSeconds} seconds</span>` : ''}</p></li>`,
			)}</ol>`
		: html`<p class="empty">No questions were recorded for this interview.</p>`
}</section>`,
	)
}
