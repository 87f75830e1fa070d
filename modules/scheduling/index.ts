/**
 * Scheduling interviews with people on an application: interviewers, time in the scheduler's zone
 * (with free/busy from connected calendars), a video link, and iCalendar invitations through the
 * outbox (REQUEST, updates with a higher SEQUENCE, CANCEL, one UID); on the calendar and in get_calendar.
 */
import { contribute, defineModule } from '../../core/module.ts'
import { calendarSources } from '../calendar/index.ts'
import { scheduledCalendarSource } from './calendar-source.ts'
import { scheduledInterviewsSection } from './pages.ts'
import { schedulingRoutes } from './routes.ts'
import * as tables from './table.ts'
import { schedulingData } from './data.ts'
import { candidateData } from '../candidates/index.ts'

export { cancelInterview, rescheduleInterview, scheduleInterview, type ScheduleInput } from './service.ts'
export { invitationIcs, type Invitation } from './ical.ts'

export default defineModule({
	name: 'scheduling',
	description: 'Interviews scheduled with people: interviewers, time, video link and iCalendar invitations, rescheduled or cancelled.',
	requires: ['auth', 'audit', 'activity', 'jobs', 'candidates', 'outbox', 'calendar'],
	checks: ['scheduling:write', 'candidates:contact'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'scheduling:write',
			description: 'Schedule, reschedule and cancel interviews (hiring managers: their jobs’ applications)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	routes: schedulingRoutes,
	paths: ['/applications'],
	contributes: [contribute(candidateData, schedulingData), contribute(calendarSources, scheduledCalendarSource)],
	pageSections: [scheduledInterviewsSection],
	activityLabels: {
		'interview.scheduled': 'scheduled an interview on',
		'interview.rescheduled': 'moved an interview on',
		'interview.cancelled': 'cancelled an interview on',
	},
})
