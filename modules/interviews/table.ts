import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { applications, candidates } from '../candidates/table.ts'
import { jobs } from '../jobs/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * The longest an interview may last. The calendar finds a window's interviews by their start
 * (`interviews_workspace_scheduled`): one that began up to this long before the window may still
 * be running in it, so the search starts that much earlier instead of at the beginning of time.
 */
export const MAX_INTERVIEW_MINUTES = 24 * 60

/**
 * An AI video interview of a candidate for a job, run by the interview provider. Status goes
 * `invited` → `started` → `completed`; `invited`/`started` → `expired` once the deadline passes.
 * The calendar shows it from `scheduledAt` for `durationMinutes`.
 */
export const interviews = pgTable(
	'interviews',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		jobId: text('job_id')
			.notNull()
			.references(() => jobs.id),
		applicationId: text('application_id').references(() => applications.id),
		/** Who invited the candidate; the interview is on their calendar. */
		ownerUserId: text('owner_user_id').references(() => users.id),
		status: text('status').notNull().default('invited'),
		scheduledAt: at('scheduled_at').notNull(),
		durationMinutes: integer('duration_minutes').notNull().default(30),
		deadlineAt: at('deadline_at').notNull(),
		invitedAt: at('invited_at').notNull().defaultNow(),
		startedAt: at('started_at'),
		completedAt: at('completed_at'),
		expiredAt: at('expired_at'),
		/** 0 to 100. */
		overallScore: integer('overall_score'),
		/** recommended, consider, not_recommended. */
		verdict: text('verdict'),
		summary: text('summary'),
		createdAt: at('created_at').notNull().defaultNow(),
		/** Insertion order, the tie-break of `created_at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [
		index('interviews_workspace_created').on(t.workspaceId, t.createdAt.desc(), t.seq.desc()),
		index('interviews_workspace_status_created').on(t.workspaceId, t.status, t.createdAt.desc(), t.seq.desc()),
		index('interviews_open_deadline').on(t.deadlineAt).where(sql`status in ('invited', 'started')`),
		index('interviews_workspace_scheduled').on(t.workspaceId, t.scheduledAt),
		index('interviews_workspace_completed').on(t.workspaceId, t.completedAt),
		index('interviews_application').on(t.applicationId),
		// A hiring manager's interviews are those of their jobs (`interviewReach`): their review queue and lists read them by job.
		index('interviews_job').on(t.jobId),
		check('interviews_status_valid', sql`${t.status} in ('invited', 'started', 'completed', 'expired')`),
		check('interviews_duration_bounded', sql`${t.durationMinutes} between 1 and ${sql.raw(String(MAX_INTERVIEW_MINUTES))}`),
	],
)

/** The questions asked, and once completed, each answer's transcript and score. */
export const interviewQuestions = pgTable(
	'interview_questions',
	{
		id: text('id').primaryKey(),
		interviewId: text('interview_id')
			.notNull()
			.references(() => interviews.id),
		position: integer('position').notNull(),
		prompt: text('prompt').notNull(),
		/** What the question assesses, e.g. "Spring Boot" or "Communication". */
		competency: text('competency'),
		transcript: text('transcript'),
		/** 0 to 100. */
		score: integer('score'),
		durationSeconds: integer('duration_seconds'),
	},
	(t) => [uniqueIndex('interview_questions_position').on(t.interviewId, t.position)],
)

/** Provider callbacks already applied, by the provider's event id: the same event twice has one effect. */
export const interviewEvents = pgTable('interview_events', {
	eventId: text('event_id').primaryKey(),
	interviewId: text('interview_id')
		.notNull()
		.references(() => interviews.id),
	type: text('type').notNull(),
	receivedAt: at('received_at').notNull().defaultNow(),
})

/** Who has looked at a completed interview's result (it leaves their review queue). */
export const interviewViews = pgTable(
	'interview_views',
	{
		interviewId: text('interview_id')
			.notNull()
			.references(() => interviews.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		seenAt: at('seen_at').notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.interviewId, t.userId] })],
)
