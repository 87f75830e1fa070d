/** The events about AI video interviews (read by webhooks). */
import { Type as T } from '@sinclair/typebox'
import { defineEvent } from '../events/index.ts'
import { VERDICTS } from './questions.ts'

export const interviewCompleted = defineEvent({
	type: 'interview.completed',
	description: 'A candidate’s AI video interview was completed and scored',
	data: T.Object({
		interviewId: T.String(),
		applicationId: T.Union([T.String(), T.Null()]),
		candidateId: T.String(),
		jobId: T.String(),
		overallScore: T.Number(),
		verdict: T.Union(VERDICTS.map((v) => T.Literal(v))),
	}),
})
