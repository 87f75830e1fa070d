/** Interviews scheduled with people (not the AI video interviews): when, who, and the invitation's version. */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { applications } from '../candidates/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * An interview of an application's candidate with interviewers, at a time read in the scheduler's
 * time zone (kept: the invitation names it as its TZID). `sequence` is the iCalendar SEQUENCE of
 * the last invitation sent: each reschedule and the cancellation raise it, with the same UID.
 */
export const scheduledInterviews = pgTable(
	'scheduled_interviews',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		applicationId: text('application_id')
			.notNull()
			.references(() => applications.id, { onDelete: 'cascade' }),
		candidateId: text('candidate_id').notNull(),
		jobId: text('job_id').notNull(),
		organizerUserId: text('organizer_user_id').references(() => users.id),
		startsAt: at('starts_at').notNull(),
		durationMinutes: integer('duration_minutes').notNull(),
		timeZone: text('time_zone').notNull(),
		videoUrl: text('video_url'),
		/** scheduled or cancelled. */
		status: text('status').notNull().default('scheduled'),
		sequence: integer('sequence').notNull().default(0),
		createdAt: at('created_at').notNull().defaultNow(),
		updatedAt: at('updated_at').notNull().defaultNow(),
	},
	(t) => [index('scheduled_interviews_start').on(t.workspaceId, t.startsAt), index('scheduled_interviews_application').on(t.applicationId)],
)

/** The interviewers of a scheduled interview: it is on each one's calendar. */
export const scheduledInterviewers = pgTable(
	'scheduled_interviewers',
	{
		interviewId: text('interview_id')
			.notNull()
			.references(() => scheduledInterviews.id, { onDelete: 'cascade' }),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
	},
	(t) => [primaryKey({ columns: [t.interviewId, t.userId] }), index('scheduled_interviewers_person').on(t.userId)],
)
