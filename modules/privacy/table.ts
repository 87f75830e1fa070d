import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/**
 * A workspace's privacy rules (no row: the defaults). A federal contractor keeps an anonymous
 * applicant-flow record of each erased applicant for `holdYears` (OFCCP, 41 CFR 60-1.12: one year,
 * two for 150 employees and a contract of $150,000); `inactiveMonths` erases candidates with no
 * activity for that long (null: never).
 */
export const privacySettings = pgTable('privacy_settings', {
	workspaceId: text('workspace_id')
		.primaryKey()
		.references(() => workspaces.id),
	federalContractor: boolean('federal_contractor').notNull().default(false),
	holdYears: smallint('hold_years').notNull().default(2),
	inactiveMonths: integer('inactive_months'),
	updatedAt: at('updated_at').notNull().defaultNow(),
})

/**
 * What a legal hold keeps of an erased applicant's application: the job, the dates, the stages it
 * went through and its outcome; no name, contact or free text. Deleted by the daily sweep once
 * `keepUntil` has passed. `id` is the erased application's id (the EEO answers kept with it).
 */
export const applicantFlow = pgTable(
	'applicant_flow',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		jobId: text('job_id').notNull(),
		/** applicant or lead. */
		kind: text('kind').notNull(),
		appliedAt: at('applied_at').notNull(),
		stage: text('stage').notNull(),
		/** hired, rejected, withdrawn; null when none was recorded before the erasure. */
		outcome: text('outcome'),
		stageChangedAt: at('stage_changed_at').notNull(),
		stages: jsonb('stages').$type<{ from: string; to: string; at: string }[]>().notNull(),
		erasedAt: at('erased_at').notNull(),
		keepUntil: at('keep_until').notNull(),
	},
	(t) => [index('applicant_flow_keep_until').on(t.keepUntil), index('applicant_flow_workspace').on(t.workspaceId, t.jobId)],
)
