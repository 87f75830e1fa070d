import { sql } from 'drizzle-orm'
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users, workspaces } from '../auth/table.ts'
import { jobQuestions, jobs } from '../jobs/table.ts'

/** The workspace's pipeline: stage keys (`applied`, `screening`, …) with labels it can rename, and added stages. */
export const pipelineStages = pgTable(
	'pipeline_stages',
	{
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		key: text('key').notNull(),
		label: text('label').notNull(),
		position: integer('position').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
)

/** A candidate: one per e-mail address per workspace. */
export const candidates = pgTable(
	'candidates',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		name: text('name').notNull(),
		/** Lower-cased. */
		email: text('email').notNull(),
		phone: text('phone'),
		location: text('location'),
		/** Headline role, e.g. "Senior Java Developer". */
		headline: text('headline'),
		skills: text('skills').array().notNull().default(sql`'{}'::text[]`),
		/** e.g. USC, GC, H1B, OPT, EAD, TN, L2. */
		workAuthorization: text('work_authorization'),
		yearsExperience: integer('years_experience'),
		resumeFileName: text('resume_file_name'),
		resumeMime: text('resume_mime'),
		/** Path of the stored file under DATA_DIR (or object key). */
		resumePath: text('resume_path'),
		resumeText: text('resume_text'),
		/** careers, vendor, referral, sourced, job_board, … */
		source: text('source').notNull().default('sourced'),
		ownerUserId: text('owner_user_id').references(() => users.id),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('candidates_workspace_email').on(t.workspaceId, t.email),
		index('candidates_workspace_created').on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
		// `/candidates` sorted by name (either way): a page read in order, not a sort of the workspace.
		index('candidates_workspace_name').on(t.workspaceId, sql`lower(name)`, t.id),
	],
)

/**
 * A candidate on a job. `kind` is `applicant` (applied) or `lead` (sourced for the job);
 * `resumeCheck` holds the per-item result of the résumé check and `resumeScore` its score.
 */
export const applications = pgTable(
	'applications',
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
		stageKey: text('stage_key').notNull(),
		/** null while in progress; hired, rejected, withdrawn. */
		outcome: text('outcome'),
		archived: boolean('archived').notNull().default(false),
		kind: text('kind').notNull().default('applicant'),
		/** none, shortlisted, declined. */
		shortlist: text('shortlist').notNull().default('none'),
		resumeCheck: jsonb('resume_check').$type<Record<string, unknown>>(),
		resumeScore: integer('resume_score'),
		source: text('source'),
		/**
		 * The résumé this application came with, when it is not the candidate's own (the address was
		 * already on file with a résumé): a form anyone can send never replaces what the firm holds.
		 * Its check is against this text.
		 */
		resumeFileName: text('resume_file_name'),
		resumeMime: text('resume_mime'),
		resumePath: text('resume_path'),
		resumeText: text('resume_text'),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		stageChangedAt: timestamp('stage_changed_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [
		uniqueIndex('applications_candidate_job').on(t.candidateId, t.jobId),
		index('applications_job_created').on(t.jobId, t.createdAt.desc(), t.id.desc()),
		// The review queue's new applications (queries.ts, `waitingApplications`): a job's still in a
		// stage, oldest first, in the byte order of ids the merged sources page by; with INCLUDE
		// (candidate_id, workspace_id) in migrations/0001_applications_waiting.sql (not expressible here), so it is read index-only.
		index('applications_waiting')
			.on(t.jobId, t.stageKey, t.createdAt, sql`id collate "C"`)
			.where(sql`archived = false and outcome is null and kind = 'applicant'`),
		// A job's applicants (or leads) ranked by résumé score (`getJobApplicants`): an ordered read
		// of a page, not a sort of the job's thousands of applications.
		index('applications_job_ranked').on(t.jobId, t.kind, sql`coalesce(resume_score, -1) desc`, t.id).where(sql`archived = false`),
		// Also `applications_job_counts` (job_id, INCLUDE workspace_id, stage_key, kind, outcome;
		// unarchived), for the job tools' counts (no INCLUDE here): migrations/0009_applications_job_counts_outcome.sql;
		// and `applications_workspace_created` (workspace_id, created_at desc, id desc, INCLUDE kind,
		// stage_key, outcome), the workspace's applications newest first and the analytics funnel's
		// counts of a part of a day read from the index alone: migrations/0000_baseline.sql.
	],
)

/**
 * Applications counted by the UTC day they arrived, their current stage, outcome (`''` for none) and
 * kind: what the analytics funnel reads for a whole workspace, so a 30-day funnel sums a few hundred
 * rows instead of counting every application of the month. Kept by a trigger on `applications`
 * (migrations/0000_baseline.sql), so every writer (apply form, stage
 * moves, seeds, imports) keeps it right; bulk loads that switch triggers off fill it themselves
 * (bench/scale.ts).
 */
export const applicationDailyCounts = pgTable(
	'application_daily_counts',
	{
		workspaceId: text('workspace_id').notNull(),
		day: date('day', { mode: 'string' }).notNull(),
		stageKey: text('stage_key').notNull(),
		outcome: text('outcome').notNull(),
		kind: text('kind').notNull(),
		n: integer('n').notNull(),
	},
	(t) => [primaryKey({ columns: [t.workspaceId, t.day, t.stageKey, t.outcome, t.kind] })],
)

/** Answers to a job's screening questions, given on the careers apply form. */
export const applicationAnswers = pgTable(
	'application_answers',
	{
		applicationId: text('application_id')
			.notNull()
			.references(() => applications.id),
		questionId: text('question_id')
			.notNull()
			.references(() => jobQuestions.id),
		answer: text('answer').notNull(),
	},
	(t) => [primaryKey({ columns: [t.applicationId, t.questionId] })],
)

/** One person's rating of an application (1 to 5), with an optional comment. */
export const ratings = pgTable(
	'ratings',
	{
		id: text('id').primaryKey(),
		applicationId: text('application_id')
			.notNull()
			.references(() => applications.id),
		userId: text('user_id')
			.notNull()
			.references(() => users.id),
		score: integer('score').notNull(),
		comment: text('comment'),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Insertion order, the tie-break of `created_at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [index('ratings_application').on(t.applicationId)],
)

/** Notes on a candidate (optionally about one application); private notes are seen by their author, owners and admins. */
export const notes = pgTable(
	'notes',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		candidateId: text('candidate_id')
			.notNull()
			.references(() => candidates.id),
		applicationId: text('application_id').references(() => applications.id),
		authorUserId: text('author_user_id')
			.notNull()
			.references(() => users.id),
		body: text('body').notNull(),
		/** private or shared. */
		visibility: text('visibility').notNull().default('shared'),
		createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
		/** Insertion order, the tie-break of `created_at` (never written by inserts). */
		seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
	},
	(t) => [index('notes_candidate').on(t.candidateId, t.createdAt, t.seq)],
)

/**
 * A résumé an applicant already chose, kept while the apply form comes back for other fields
 * (issue 19: on a phone nobody should have to find the file again). Only the SHA-256 of the token
 * the form carries is stored; the file lives in the file store until used or expired.
 */
export const keptResumes = pgTable(
	'kept_resumes',
	{
		id: text('id').primaryKey(),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id),
		fileKey: text('file_key').notNull(),
		fileName: text('file_name').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
	},
	(t) => [index('kept_resumes_expires').on(t.expiresAt)],
)
