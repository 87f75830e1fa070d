/** The calendar module's view for assistant apps that show MCP Apps (see `ViewDef`). */
import type { ViewDef } from '../../core/module.ts'

export const calendarViews: ViewDef[] = [
	{
		name: 'calendar',
		title: 'Calendar',
		description: 'The calendar entries of the chosen range on a day grid: interviews, follow-ups and busy times.',
		file: new URL('./views/calendar.html', import.meta.url),
		tools: ['get_calendar'],
	},
]
