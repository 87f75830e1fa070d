/**
 * The candidate-data port: every module that holds something about a candidate says what it holds
 * (the export a candidate may ask for) and deletes it (erasure). A registry-wide test fails when a
 * table with a `candidate_id` or `application_id` column is named by no contribution
 * (tests/candidate-data.test.ts), so a new module cannot forget the people it stores.
 * Contributed with `contribute(candidateData, …)` by a module requiring this one; the privacy
 * module runs them (exports in dependency order, erasures in reverse: this module's rows go last).
 */
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'
import type { Db } from '../../db/client.ts'

/** The person being exported or erased, read once before any source runs. */
export interface CandidateSubject {
	readonly workspaceId: string
	readonly candidateId: string
	/** As stored (to name them on the confirmation; it is erased with the rest). */
	readonly name: string
	/** Every application of the candidate (also those a legal hold keeps as an anonymous record). */
	readonly applicationIds: readonly string[]
	/**
	 * What is replaced wherever free text of the workspace holds it (mail sent about anyone, other
	 * conversations, search criteria, the activity log): the e-mail address and phone number, and the
	 * name unless another candidate of the workspace has the same one (their mentions are theirs).
	 */
	readonly needles: readonly string[]
	/** The name, e-mail address and phone number: replaced in what is tied to this person (mail to them or about their applications, their records' activity). */
	readonly ownNeedles: readonly string[]
	/** `needles` and their distinctive surname alone (core/erased-text.ts matches it as a whole word): replaced in searches people typed (the audit trail's criteria, saved searches). */
	readonly searchNeedles: readonly string[]
}

/** A stored file handed with the export: its key in the file store and its name inside the ZIP. */
export interface ExportFile {
	readonly key: string
	readonly name: string
}

export interface CandidateDataPart {
	/** JSON-ready data (ids, dates as ISO strings, texts as stored). */
	readonly data: unknown
	readonly files?: readonly ExportFile[]
}

export interface CandidateDataSource {
	/** Its part of the export's JSON, e.g. `documents`. */
	readonly key: string
	/** The tables it exports and erases (snake_case names, as in the database). */
	readonly tables: readonly string[]
	/**
	 * Free text people write about anyone (`table.column`: a note on another candidate, a to-do, a
	 * saved search's words) that its `erase` rids of the person (`needles`, core/erased-text.ts):
	 * whatever names them there becomes "Erased candidate". A registry-wide test writes the person
	 * into each and fails when one still holds them after the erasure (tests/candidate-data.test.ts).
	 */
	readonly freeText?: readonly string[]
	/** What it holds about the person (everything, whoever may see it on the pages: the person asked). */
	export(deps: AppDeps, db: Db, subject: CandidateSubject): Promise<CandidateDataPart>
	/**
	 * Deletes what it holds about the person, in the erasure's transaction; returns the file-store
	 * keys to delete once the transaction has committed. `hold`: a legal hold keeps an anonymous
	 * applicant-flow record, so anonymous rows that belong to it (EEO counts) may stay until `released`.
	 */
	erase(deps: AppDeps, tx: Db, subject: CandidateSubject, o: { hold: boolean }): Promise<{ files?: readonly string[] } | undefined>
	/**
	 * Of these candidates, those with activity here since `since` (a message, an interview): the
	 * retention rule keeps them. Absent: this module's records never count as activity.
	 */
	activeSince?(deps: AppDeps, workspaceId: string, candidateIds: readonly string[], since: Date): Promise<ReadonlySet<string>>
	/** A legal hold of these applications ended: delete what `erase` kept for it. */
	released?(deps: AppDeps, tx: Db, workspaceId: string, applicationIds: readonly string[]): Promise<void>
}

export const candidateData = definePort<CandidateDataSource>(
	'candidates:data',
	'What a module holds about a candidate: exported when they ask for their data, deleted when they ask to be erased',
)
