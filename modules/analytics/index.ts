import { defineModule } from '../../core/module.ts'
import { applicationsHomeSection } from './home.ts'
import { analyticsRoutes } from './routes.ts'
import { seedCareersEvents } from './seed.ts'
import { analyticsTools } from './tools.ts'
import { analyticsViews } from './views.ts'
import * as tables from './table.ts'

export { recordCareersEvent, type CareersEvent } from './service.ts'
export { careersSource, normalizeSource } from './sources.ts'

export default defineModule({
	name: 'analytics',
	description: 'Careers-site analytics: job page views and applications by job and by source.',
	requires: ['jobs', 'candidates'],
	// Its careers events point at auth's workspaces; it calls nothing of auth.
	references: ['auth'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'analytics:read',
			description: 'See careers-site analytics (hiring managers: their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	tools: analyticsTools,
	views: analyticsViews,
	routes: analyticsRoutes,
	paths: ['/analytics'],
	nav: [{ href: '/analytics', label: 'Analytics', permission: 'analytics:read', section: 'work', order: 60 }],
	pageSections: [applicationsHomeSection],
	seed: seedCareersEvents,
})
