import { defineModule } from '../../core/module.ts'
import { activityRoutes } from './routes.ts'
import * as tables from './table.ts'

export { recordNamesFrom } from './sentences.ts'
export { forgetMentions } from './erasure.ts'
export { personFilterProblem } from './filters.ts'
export { recordActivity, activityInsertFrom, activityValues, type ActorSql, activityFor, listActivity, type ActivityEntry } from './service.ts'

export default defineModule({
	name: 'activity',
	description: 'The activity log: every change made through any door, with the person and credential behind it.',
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [{ key: 'activity:read', description: 'Read the workspace activity log', grantedTo: ['owner', 'admin'] }],
	routes: activityRoutes,
	paths: ['/activity'],
	nav: [{ href: '/activity', label: 'Activity', permission: 'activity:read' }],
	activityLabels: {},
})
