import { defineModule } from '../../core/module.ts'
import { interviewsSection } from './candidate-section.ts'
import { completedInterviewsSource, interviewCalendarSource } from './contributions.ts'
import { interviewRoutes } from './routes.ts'
import { seedInterviews } from './seed.ts'
import { interviewsOfApplications } from './service.ts'
import { startExpirySweep } from './sweep.ts'
import { interviewTools } from './tools.ts'

export { expireOverdueInterviews } from './sweep.ts'
export { inviteToInterview, type InviteInput } from './service.ts'
export { VERDICTS, type Verdict } from './questions.ts'

export default defineModule({
	name: 'interviews',
	description: 'AI video interviews: invitations, the provider’s signed results, scores and verdicts, expiry at the deadline.',
	requires: ['auth', 'activity', 'jobs', 'candidates', 'outbox', 'todos'],
	permissions: [{ key: 'interviews:read', description: 'See AI video interviews and their results (hiring managers: their jobs)', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'] }],
	tools: interviewTools,
	routes: interviewRoutes,
	calendarSources: [interviewCalendarSource],
	reviewSources: [completedInterviewsSource],
	applicationDetails: interviewsOfApplications,
	pageSections: [interviewsSection],
	seed: seedInterviews,
	start: (deps) => startExpirySweep(deps),
})
