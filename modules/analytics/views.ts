/** The analytics module's view for assistant apps that show MCP Apps (see `ViewDef`). */
import type { ViewDef } from '../../core/module.ts'

export const analyticsViews: ViewDef[] = [
	{
		name: 'careers-analytics',
		title: 'Careers analytics',
		description: 'Careers-site analytics for the chosen range as charts: views and applications against the period before, top jobs and top sources.',
		file: new URL('./views/careers-analytics.html', import.meta.url),
		tools: ['get_analytics_summary'],
	},
]
