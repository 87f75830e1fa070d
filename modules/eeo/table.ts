import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Applicants' voluntary self-identification, kept apart from their application: no page, tool or
 * list reads this table except the owners' aggregated EEO report (eeo/report.ts). One row per
 * application, written in the application's own transaction; codes only (eeo/questions.ts).
 */
export const eeoSelfIdentification = pgTable(
	'eeo_self_identification',
	{
		applicationId: text('application_id').primaryKey(),
		workspaceId: text('workspace_id').notNull(),
		jobId: text('job_id').notNull(),
		sex: text('sex').notNull(),
		ethnicity: text('ethnicity').notNull(),
		veteran: text('veteran').notNull(),
		disability: text('disability').notNull(),
		recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [index('eeo_self_identification_job').on(t.workspaceId, t.jobId)],
)
