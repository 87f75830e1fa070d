import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { calendarSources } from '../calendar/index.ts'
import { applicationDetails, candidateData } from '../candidates/index.ts'
import { reviewSources } from '../review/index.ts'
import { eventTypes } from '../events/index.ts'
import { interviewCompleted } from './events.ts'
import { interviewResultsSection } from './application-section.ts'
import { interviewsSection } from './candidate-section.ts'
import { completedInterviewsSource, interviewCalendarSource } from './contributions.ts'
import { interviewRoutes } from './routes.ts'
import { seedInterviews } from './seed.ts'
import { interviewsOfApplications } from './service.ts'
import { interviewSettings } from './settings.ts'
import { startExpirySweep } from './sweep.ts'
import { interviewTools } from './tools.ts'
import * as tables from './table.ts'
import { interviewsData } from './data.ts'

export { expireOverdueInterviews } from './sweep.ts'
export { inviteToInterview, type InviteInput } from './service.ts'
export { VERDICTS, type Verdict } from './questions.ts'
export { interviewCompleted } from './events.ts'
export { aiScorecardsOf, ratingOfScore, type AiScorecard } from './scorecard.ts'

export default defineModule({
	name: 'interviews',
	settings: interviewSettings,
	description: 'AI video interviews: invitations, the provider’s signed results, scores and verdicts, expiry at the deadline.',
	requires: ['auth', 'activity', 'jobs', 'candidates', 'outbox', 'todos', 'calendar', 'review', 'events'],
	checks: ['interviews:read'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'interviews:read',
			description: 'See AI video interviews and their results (hiring managers: their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	tools: interviewTools,
	routes: interviewRoutes,
	paths: ['/interviews', '/api/interviews'],
	nav: [{ href: '/interviews', label: 'Interviews', permission: 'interviews:read', section: 'work', order: 70 }],
	contributes: [
		contribute(candidateData, interviewsData),
		contribute(calendarSources, interviewCalendarSource),
		contribute(reviewSources, completedInterviewsSource),
		contribute(applicationDetails, interviewsOfApplications),
		contribute(eventTypes, interviewCompleted),
	],
	pageSections: [interviewResultsSection, interviewsSection],
	seed: seedInterviews,
	start: (deps) => startExpirySweep(deps),
	activityLabels: {
		'interview.invited': 'invited to an AI video interview',
		'interview.started': 'started the AI video interview of',
		'interview.completed': 'recorded the completed AI video interview of',
		'interview.expired': 'let expire the AI video interview of',
	},
	recordNames: [recordNamesFrom('interview', 'interviews', '(select c.name from candidates c where c.id = r.candidate_id)')],
})
