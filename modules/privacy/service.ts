/**
 * A candidate's data, exported and erased through every module that holds some (the
 * `candidates:data` port). Rules:
 * - Export (owners, admins, the operator): one ZIP with `candidate.json` (each module's part under
 *   its key) and the stored files (résumé, documents); recorded in the audit trail.
 * - Erase (owners, the operator): in one transaction, every module deletes what it holds (the
 *   dependents first, the candidate's own rows last); messages still to be sent to them are not sent,
 *   and copies of their name, e-mail address and phone number in mail sent about them, in the
 *   activity log's details and in the searches of the audit trail become "Erased candidate" (this
 *   instance's buffered audit lines are written first; lines other instances still held are
 *   scrubbed by a second pass a second later, modules/audit/erasure.ts); a
 *   `candidate.erased` event is written with it. Under a legal hold (a federal contractor), each
 *   application first becomes an anonymous applicant-flow record kept for the hold period. Stored
 *   files are deleted once the transaction has committed.
 */
import { isoInstant } from '../../core/time.ts'
import { sql } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { notFound } from '../../core/errors.ts'
import { fileStore } from '../../core/files.ts'
import { contributionsTo } from '../../core/registry.ts'
import type { Db } from '../../db/client.ts'
import { forgetMentions, recordActivity } from '../activity/index.ts'
import { flushAudit, forgetSearchedFor, forgetSearchedForLater, recordDataAccess } from '../audit/index.ts'
import { applicantFlowOf, candidateData, candidateErased, candidateSubject, type CandidateSubject } from '../candidates/index.ts'
import { recordEvent } from '../events/index.ts'
import { forgetRecipient } from '../outbox/index.ts'
import { privacyRules } from './rules.ts'
import { applicantFlow } from './table.ts'

const sources = (deps: AppDeps) => contributionsTo(deps.registry, candidateData)

async function subjectOf(deps: AppDeps, db: Db, actor: Actor, candidateId: string): Promise<CandidateSubject> {
	const subject = await candidateSubject(deps, db, actor.workspaceId, candidateId)
	if (!subject) throw notFound('No such candidate')
	return subject
}

export interface CandidateExport {
	fileName: string
	bytes: Uint8Array
	/** Files the export lists that the file store no longer has (named in `candidate.json`). */
	missingFiles: string[]
}

/** Everything held about the person, as one ZIP; `address` is the client's (for the audit trail). */
export async function exportCandidate(deps: AppDeps, actor: Actor, candidateId: string, address: string): Promise<CandidateExport> {
	const { subject, parts } = await deps.db.transaction(async (tx) => {
		const subject = await subjectOf(deps, tx, actor, candidateId)
		const parts = []
		for (const source of sources(deps)) parts.push({ source, part: await source.export(deps, tx, subject) })
		return { subject, parts }
	})
	const store = fileStore(deps.config)
	const entries: Record<string, Uint8Array> = {}
	const missingFiles: string[] = []
	for (const { part } of parts)
		for (const file of part.files ?? []) {
			const bytes = await store.get(file.key).catch(() => null)
			if (bytes) entries[`files/${file.name}`] = bytes
			else missingFiles.push(file.name)
		}
	const json = {
		exportedAt: deps.now().toISOString(),
		workspace: actor.workspaceSlug,
		candidateId,
		...Object.fromEntries(parts.map(({ source, part }) => [source.key, part.data])),
		...(missingFiles.length ? { missingFiles } : {}),
	}
	entries['candidate.json'] = strToU8(JSON.stringify(json, instantsInIso, 2))
	recordDataAccess(deps, actor, address, 'candidate.exported', [candidateId, ...subject.applicationIds])
	return { fileName: `candidate-${candidateId}.zip`, bytes: zipSync(entries, { level: 6 }), missingFiles }
}

/** A field holding an instant: `createdAt`, `at`… */
const INSTANT_KEY = /(^at|At)$/
const INSTANT_TEXT = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d/

/**
 * Every instant of the export in one form, ISO 8601 in UTC (`…T21:14:50.263Z`): modules read their
 * rows as the database writes timestamps (`2026-12-04 21:14:50.263+00`, or `+00:00` inside JSON),
 * and a person's file should not mix three spellings of a time.
 */
function instantsInIso(key: string, value: unknown): unknown {
	if (typeof value !== 'string' || !INSTANT_KEY.test(key) || !INSTANT_TEXT.test(value)) return value
	try {
		return isoInstant(value)
	} catch {
		return value // not an instant after all (new Date() of it is invalid): as stored
	}
}

export interface Erasure {
	candidateId: string
	applications: number
	/** Messages that were waiting to be sent to the person, now not sent. */
	cancelledMessages: number
	/** Applications kept as anonymous applicant-flow records, and until when (null: no hold). */
	heldUntil: Date | null
}

/** Erases the person everywhere (rules in the file header); `address` is the client's (for the audit trail). */
export async function eraseCandidate(deps: AppDeps, actor: Actor, candidateId: string, address: string): Promise<Erasure> {
	const all = sources(deps)
	const files: string[] = []
	// This instance's searches still waiting in the audit trail's write-behind buffer go in first, so the scrub below reaches them.
	await flushAudit(deps)
	let needles: readonly string[] = []
	const erasure = await deps.db.transaction(async (tx) => {
		const subject = await subjectOf(deps, tx, actor, candidateId)
		const rules = await privacyRules(deps, actor.workspaceId, tx)
		const now = deps.now()
		let heldUntil: Date | null = null
		if (rules.federalContractor && subject.applicationIds.length) {
			heldUntil = new Date(now)
			heldUntil.setUTCFullYear(heldUntil.getUTCFullYear() + rules.holdYears)
			const flow = await applicantFlowOf(deps, tx, subject)
			await tx
				.insert(applicantFlow)
				.values(
					flow.map((a) => ({
						id: a.applicationId,
						workspaceId: actor.workspaceId,
						jobId: a.jobId,
						kind: a.kind,
						appliedAt: new Date(a.appliedAt),
						stage: a.stage,
						outcome: a.outcome,
						stageChangedAt: new Date(a.stageChangedAt),
						stages: a.stages,
						erasedAt: now,
						keepUntil: heldUntil!,
					})),
				)
				.onConflictDoNothing()
		}
		for (const source of [...all].reverse()) {
			const erased = await source.erase(deps, tx, subject, { hold: heldUntil !== null })
			files.push(...(erased?.files ?? []))
		}
		const { cancelled } = await forgetRecipient(tx, {
			workspaceId: actor.workspaceId,
			recipientType: 'candidate',
			recipientId: candidateId,
			relatedIds: [candidateId, ...subject.applicationIds],
			needles: subject.needles,
			ownNeedles: subject.ownNeedles,
		})
		await forgetMentions(tx, actor.workspaceId, subject.needles, { targetIds: [candidateId, ...subject.applicationIds], needles: subject.ownNeedles })
		await forgetSearchedFor(tx, actor.workspaceId, subject.searchNeedles)
		needles = subject.searchNeedles
		await recordEvent(tx, candidateErased, actor, { candidateId, applicationIds: [...subject.applicationIds] })
		await recordActivity(tx, actor, {
			action: 'candidate.erased',
			targetType: 'candidate',
			targetId: candidateId,
			detail: { applications: subject.applicationIds.length, heldUntil: heldUntil?.toISOString() ?? null },
		})
		return { candidateId, applications: subject.applicationIds.length, cancelledMessages: cancelled, heldUntil }
	})
	const store = fileStore(deps.config)
	for (const key of files) await store.delete(key).catch((error) => deps.log.warn('a file of an erased candidate could not be deleted', { key, error }))
	// Lines other instances held in their buffers at the erasure: scrubbed once they have been written (not awaited).
	void forgetSearchedForLater(deps, actor.workspaceId, needles)
	recordDataAccess(deps, actor, address, 'candidate.erased', [candidateId])
	return erasure
}

/**
 * Deletes every applicant-flow record whose hold has ended (and what modules kept with them), `batch`
 * at a time, each batch its own transaction; returns how many. All of them: the sweep runs once a
 * day, so a run that stopped at one batch would keep the rest past their hold, and the backlog would
 * grow whenever more holds end in a day than one batch holds.
 */
export async function releaseEndedHolds(deps: AppDeps, batch = 500): Promise<number> {
	let released = 0
	for (;;) {
		const n = await releaseEndedBatch(deps, batch)
		released += n
		if (n < batch) return released
	}
}

async function releaseEndedBatch(deps: AppDeps, limit: number): Promise<number> {
	return deps.db.transaction(async (tx) => {
		const ended = await deps.database.rows<{ id: string; workspaceId: string }>(
			sql`delete from applicant_flow where id in (select id from applicant_flow where keep_until <= ${deps.now().toISOString()}::timestamptz order by keep_until limit ${limit} for update skip locked)
			returning id, workspace_id as "workspaceId"`,
			tx,
		)
		const byWorkspace = Map.groupBy(ended, (r) => r.workspaceId)
		for (const [workspaceId, rows] of byWorkspace)
			for (const source of sources(deps))
				await source.released?.(
					deps,
					tx,
					workspaceId,
					rows.map((r) => r.id),
				)
		return ended.length
	})
}

/** What erasing would do, for the confirmation: the person's name, their applications, and whether a hold keeps an anonymous record. */
export async function erasurePreview(deps: AppDeps, actor: Actor, candidateId: string) {
	const subject = await subjectOf(deps, deps.db, actor, candidateId)
	const rules = await privacyRules(deps, actor.workspaceId)
	return { candidateId, name: subject.name, applications: subject.applicationIds.length, rules }
}
