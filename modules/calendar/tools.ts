/** The calendar tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, limit, nullable, oneOf, params, PersonRef } from '../../core/mcp/params.ts'
import { UntrustedLine } from '../../core/untrusted.ts'
import { CALENDAR_TYPES, getCalendar, SCOPES, WHEN_MESSAGE, WHEN_PATTERN, type CalendarType, type Scope } from './service.ts'

const when = (what: string) =>
	t.String({
		maxLength: 40,
		pattern: WHEN_PATTERN,
		'x-pattern-message': WHEN_MESSAGE,
		description: `${what}: an ISO 8601 date (2026-05-04) or date-time (2026-05-04T09:30:00Z; without an offset it is UTC), years 1000 to 9998`,
	})

const Event = t.Object({
	id: t.String(),
	type: oneOf(CALENDAR_TYPES),
	title: t.Union([t.String(), UntrustedLine], {
		description:
			'Our words for interviews ("AI video interview", or "Interview" for one scheduled with interviewers) and busy times ("Busy": only busy/free is shared); a follow-up’s title as a person wrote it, labelled',
	}),
	start: t.String({ format: 'date-time' }),
	end: t.String({ format: 'date-time' }),
	allDay: t.Boolean(),
	status: t.String({
		description:
			'Interview status (AI video interviews: invited, started, completed, expired; scheduled interviews: scheduled), follow-up state (open, done) or busy',
	}),
	person: t.Composite([PersonRef], { description: 'Whose calendar the event is on' }),
	candidate: nullable(t.Object({ id: t.String(), name: UntrustedLine })),
	job: nullable(t.Object({ id: t.String(), title: UntrustedLine })),
})

export const calendarTools = [
	defineTool({
		name: 'get_calendar',
		title: 'Get the calendar',
		description:
			'Calendar events between two ISO 8601 dates or date-times, in start order: AI video interviews, interviews scheduled with interviewers (one event per interviewer), follow-ups (to-dos with a due time) and busy times from people’s own calendars (busy/free only). Defaults: from now, to 14 days after from; a date alone as `to` includes that whole day; a window spans at most 366 days. Scope: mine (default), team (people who share a hiring team with you) or workspace. Paged: pass nextCursor back as cursor.',
		params: params({
			from: t.Optional(when('Start of the window (default now)')),
			to: t.Optional(when('End of the window (default 14 days after from); must follow from')),
			scope: t.Optional(oneOf(SCOPES, 'Whose calendars: mine (default), team or workspace', 'mine')),
			types: t.Optional(
				t.Array(oneOf(CALENDAR_TYPES), {
					maxItems: 3,
					default: [...CALENDAR_TYPES],
					description: 'Which kinds of events (default all three): interview, followup, external',
				}),
			),
			limit: t.Optional(limit()),
			cursor: t.Optional(cursor()),
		}),
		output: t.Object({
			from: t.String({ format: 'date-time' }),
			to: t.String({ format: 'date-time' }),
			scope: oneOf(SCOPES),
			types: t.Array(oneOf(CALENDAR_TYPES)),
			events: t.Array(Event),
			nextCursor: nullable(t.String()),
		}),
		readOnly: true,
		permission: 'calendar:read',
		spec: 'R from(string maxLength=40), to(string maxLength=40), scope(enum:mine|team|workspace default="mine"), types(array maxItems=3 default=["interview","followup","external"] items:interview|followup|external), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => {
			const window = { from: new Date(Date.now() - 45 * 86_400_000).toISOString(), to: new Date(Date.now() + 45 * 86_400_000).toISOString() }
			return [
				{ ...window, scope: 'workspace' as const, limit: 100 },
				{ ...window, scope: 'mine' as const, limit: 100 },
			]
		},
		run: ({ deps, actor }, a) =>
			getCalendar(deps, actor, {
				from: a.from,
				to: a.to,
				scope: a.scope as Scope | undefined,
				types: a.types as CalendarType[] | undefined,
				limit: a.limit ?? 25,
				cursor: a.cursor,
			}),
	}),
]
