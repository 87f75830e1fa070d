import { contribute, defineModule } from '../../core/module.ts'
import { reviewHomeSection } from './home.ts'
import { newApplicationsSource } from './service.ts'
import { reviewSources } from './port.ts'
import { reviewTools } from './tools.ts'

export { UNSEEN_WINDOW_DAYS, unseenSince } from './window.ts'
export { reviewSources, type ReviewItem, type ReviewSource } from './port.ts'

export default defineModule({
	name: 'review',
	description: 'The review queue: candidates needing a person’s attention, with the reason, from every module that contributes one.',
	requires: ['jobs', 'candidates'],
	permissions: [
		{
			key: 'review:read',
			description: 'See your review queue (hiring managers: their jobs’ candidates)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	tools: reviewTools,
	ports: [reviewSources],
	contributes: [contribute(reviewSources, newApplicationsSource)],
	pageSections: [reviewHomeSection],
})
