/**
 * Scorecards: each interviewer's assessment of an application, and the attributes a job's
 * scorecards rate (the job's must-haves until someone sets them).
 */
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { applications } from '../candidates/table.ts'
import { jobs } from '../jobs/table.ts'

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 })

/** One attribute's rating: 1 (poor) to 5 (excellent). */
export interface StoredRating {
	attribute: string
	rating: number
}

/**
 * One person's scorecard of an application: a rating per attribute, an overall recommendation
 * (strong_no, no, yes, strong_yes) and notes. One per person per application; its author edits it.
 * The attributes are kept as they were rated, so changing the job's attributes later keeps old ratings.
 */
export const scorecards = pgTable(
	'scorecards',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		applicationId: text('application_id')
			.notNull()
			.references(() => applications.id, { onDelete: 'cascade' }),
		authorUserId: text('author_user_id')
			.notNull()
			.references(() => users.id),
		ratings: jsonb('ratings').$type<StoredRating[]>().notNull().default([]),
		/** Who wrote the attributes rated: `vendor` (a vendor job's must-haves) or `colleague` (a person of the workspace). */
		attributesBy: text('attributes_by').notNull().default('colleague'),
		/** The person who wrote them (set them, or made the job whose must-haves they are); null for a vendor's, or when not recorded. */
		attributesByUserId: text('attributes_by_user_id').references(() => users.id),
		recommendation: text('recommendation').notNull(),
		notes: text('notes'),
		createdAt: at('created_at').notNull().defaultNow(),
		updatedAt: at('updated_at').notNull().defaultNow(),
		/** Insertion order, the tie-break of scorecards written in the same millisecond. */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [uniqueIndex('scorecards_author').on(t.applicationId, t.authorUserId), index('scorecards_workspace').on(t.workspaceId)],
)

/** The attributes a job's scorecards rate, when set for the job (without a row: the job's must-haves). */
export const scorecardAttributes = pgTable('scorecard_attributes', {
	jobId: text('job_id')
		.primaryKey()
		.references(() => jobs.id, { onDelete: 'cascade' }),
	workspaceId: text('workspace_id')
		.notNull()
		.references(() => workspaces.id),
	attributes: text('attributes').array().notNull(),
	updatedByUserId: text('updated_by_user_id').references(() => users.id),
	updatedAt: at('updated_at').notNull().defaultNow(),
})
