/** The interview tools: thin adapters over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, id, limit, nullable, oneOf, page, params, PersonRef } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine, UntrustedText } from '../../core/untrusted.ts'
import { VERDICTS } from './questions.ts'
import { getInterview, listInterviews, STATUSES, type InterviewStatus } from './service.ts'

const date = t.String({ format: 'date-time' })
const Summary = t.Object({
	id: t.String(),
	status: oneOf(STATUSES),
	candidate: t.Object({ id: t.String(), name: UntrustedLine }),
	job: t.Object({ id: t.String(), title: UntrustedLine }),
	applicationId: nullable(t.String()),
	invitedBy: nullable(PersonRef),
	overallScore: nullable(t.Integer({ description: '0 to 100, once completed' })),
	verdict: nullable(oneOf(VERDICTS, 'The provider’s recommendation, once completed')),
	questionCount: t.Integer(),
	answeredCount: t.Integer(),
	invitedAt: date,
	scheduledAt: t.String({ format: 'date-time', description: 'When the candidate is asked to take it (the calendar event)' }),
	deadlineAt: t.String({ format: 'date-time', description: 'After this an unfinished interview expires' }),
	startedAt: nullable(date),
	completedAt: nullable(date),
	expiredAt: nullable(date),
})

const Detail = t.Composite([
	Summary,
	t.Object({
		durationMinutes: t.Integer(),
		summary: nullable(UntrustedText),
		questions: t.Array(
			t.Object({
				id: t.String(),
				position: t.Integer(),
				prompt: lineAbout('The question, made from the job’s title and must-haves (so labelled as the job’s author’s words)'),
				competency: nullable(UntrustedLine),
				answer: nullable(UntrustedText),
				score: nullable(t.Integer({ description: '0 to 100' })),
				durationSeconds: nullable(t.Integer()),
			}),
		),
	}),
])

export const interviewTools = [
	defineTool({
		name: 'list_interview_results',
		title: 'List AI video interviews',
		description:
			'AI video interviews you can see, newest first, with status (invited, started, completed, expired), candidate, job, overall score and verdict. Filter by status. Paged: pass nextCursor back as cursor.',
		params: params({ status: t.Optional(oneOf(STATUSES, 'Only interviews in this status')), limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('interviews', Summary),
		readOnly: true,
		permission: 'interviews:read',
		spec: 'R status(enum:invited|started|completed|expired), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }],
		run: ({ deps, actor }, a) => listInterviews(deps, actor, { status: a.status as InterviewStatus | undefined, limit: a.limit ?? 25, cursor: a.cursor }),
	}),
	defineTool({
		name: 'get_interview_result',
		title: 'Get an AI video interview',
		description:
			'One AI video interview: each question with the candidate’s answer (transcript), its score, the overall score, the verdict and the provider’s summary. Use an id from list_interview_results. Opening a completed result takes it off your review queue.',
		params: params({ interviewId: id('interview') }),
		output: t.Object({ interview: Detail }),
		readOnly: true,
		permission: 'interviews:read',
		spec: 'R interviewId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('interview').map((interviewId) => ({ interviewId })),
		run: async ({ deps, actor }, a) => ({ interview: await getInterview(deps, actor, a.interviewId) }),
	}),
]
