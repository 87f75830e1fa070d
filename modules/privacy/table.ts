import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { workspaces } from '../auth/table.ts'
import { candidates } from '../candidates/table.ts'

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

/**
 * A person's request for their data or its erasure, made on the workspace's public privacy page
 * (`/careers/<slug>/privacy`). Unconfirmed until the link e-mailed to the address is opened
 * (`tokenHash`: its SHA-256; `expiresAt`: when the link stops working); confirmed, it is due 45
 * days later (`dueAt`, the CCPA/CPRA limit) and waits for an owner. The owner's answer: `completed`
 * (data sent or erased, `candidateIds` the records acted on) or `declined` (`declineReason`).
 * A sent copy is downloaded through `downloadHash` until `downloadExpiresAt`.
 */
export const privacyRequests = pgTable(
	'privacy_requests',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		/** access or erasure. */
		kind: text('kind').notNull(),
		/**
		 * In its normal form (core/email.ts; one asked for before may be in another spelling: it is compared
		 * in normal form): the address the confirmation and the answer go to.
		 */
		email: text('email').notNull(),
		note: text('note'),
		tokenHash: text('token_hash').notNull(),
		expiresAt: at('expires_at').notNull(),
		createdAt: at('created_at').notNull().defaultNow(),
		confirmedAt: at('confirmed_at'),
		dueAt: at('due_at'),
		/** unconfirmed, open, completed, declined. */
		status: text('status').notNull().default('unconfirmed'),
		resolvedAt: at('resolved_at'),
		resolvedBy: text('resolved_by'),
		declineReason: text('decline_reason'),
		candidateIds: jsonb('candidate_ids').$type<string[]>().notNull().default([]),
		downloadHash: text('download_hash'),
		downloadExpiresAt: at('download_expires_at'),
	},
	(t) => [
		uniqueIndex('privacy_requests_token').on(t.tokenHash),
		uniqueIndex('privacy_requests_download').on(t.downloadHash),
		index('privacy_requests_workspace').on(t.workspaceId, t.status, t.dueAt),
	],
)

/**
 * A candidate the retention rule could not erase (the erasure threw): how many of its runs failed in a
 * row, since when, and when it tries again (`retryAt`, a backoff: retention.ts). Until then the rule
 * passes over them, so one that fails every time no longer comes first in every run, holding a place
 * of the run's few and starving the candidates behind it. It goes with the candidate (their erasure,
 * whoever makes it: the candidate-data contribution, and the cascade). No error text, which might
 * name the person: the log line holds it.
 */
export const retentionFailures = pgTable(
	'retention_failures',
	{
		candidateId: text('candidate_id')
			.primaryKey()
			.references(() => candidates.id, { onDelete: 'cascade' }),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		failures: integer('failures').notNull(),
		firstFailedAt: at('first_failed_at').notNull(),
		lastFailedAt: at('last_failed_at').notNull(),
		retryAt: at('retry_at').notNull(),
	},
	(t) => [index('retention_failures_workspace').on(t.workspaceId, t.retryAt)],
)
