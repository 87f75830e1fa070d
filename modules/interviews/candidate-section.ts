/**
 * The AI video interviews section of the candidate page: the interviews of the candidate's
 * applications the person can see (hiring managers: their jobs'), with status, score and verdict.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { dataTable, tag, when, type Tone } from '../../core/ui.ts'
import { candidateApplicationChoices } from '../candidates/index.ts'
import { VERDICT_LABELS, type Verdict } from './questions.ts'
import { interviewsOfApplications, type InterviewStatus } from './service.ts'

interface InterviewLine {
	id: string
	applicationId: string
	jobTitle: string
	status: InterviewStatus
	overallScore: number | null
	verdict: Verdict | null
	scheduledAt: string
	completedAt: string | null
}

const STATUS_TAGS: Record<InterviewStatus, [string, Tone]> = {
	invited: ['Invited', 'info'],
	started: ['Started', 'info'],
	completed: ['Completed', 'good'],
	expired: ['Expired', 'neutral'],
}

export const interviewsSection: PageSection = {
	page: 'candidate',
	order: 50,
	permission: 'interviews:read',
	async render(deps: AppDeps, session: PageSession, candidateId: string) {
		const choices = await candidateApplicationChoices(deps, session.actor, candidateId)
		const byApplication = await interviewsOfApplications(
			deps,
			session.actor,
			choices.map((c) => c.id),
		)
		const lines = choices.flatMap((c) =>
			((byApplication.get(c.id)?.interviews ?? []) as Omit<InterviewLine, 'applicationId' | 'jobTitle'>[]).map((i) => ({
				...i,
				applicationId: c.id,
				jobTitle: c.jobTitle,
			})),
		)
		return html`<section class="card" id="interviews" aria-labelledby="interviews-h"><h2 id="interviews-h">AI video interviews</h2>
${dataTable<InterviewLine>({
	caption: 'AI video interviews of the candidate',
	hideCaption: true,
	rows: lines,
	empty: 'No AI video interviews.',
	columns: [
		{ label: 'Job', cell: (i) => html`<a href="/applications/${i.applicationId}">${i.jobTitle || 'A job'}</a>` },
		{ label: 'Score', numeric: true, cell: (i) => (i.overallScore === null ? '—' : `${i.overallScore} of 100`) },
		{ label: 'Verdict', cell: (i) => (i.verdict ? VERDICT_LABELS[i.verdict] : '—') },
		{ label: 'When', cell: (i) => when(i.completedAt ?? i.scheduledAt) },
		{ label: 'Status', cell: (i) => tag(...STATUS_TAGS[i.status]) },
	],
})}</section>`
	},
}
