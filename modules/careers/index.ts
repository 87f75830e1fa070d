import { defineModule } from '../../core/module.ts'
import { careersRoutes } from './routes.ts'

export default defineModule({
	name: 'careers',
	description: 'The public careers site: job lists, job pages with JobPosting data, the sitemap.',
	requires: ['auth', 'jobs', 'analytics', 'candidates', 'eeo', 'privacy'],
	routes: careersRoutes,
	paths: ['/', '/careers', '/sitemap.xml', '/sitemaps', '/robots.txt'],
})
