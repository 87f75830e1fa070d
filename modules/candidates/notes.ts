/**
 * Writing notes on a candidate (the candidate page's Add note). Reading them is `visibleNotes`.
 *
 * Rules:
 * - People with `candidates:note` write notes (owners, admins, recruiters; hiring managers only on
 *   candidates of their jobs): a candidate out of reach is answered like an absent one.
 * - A note is 1 to 5,000 characters of plain text, shared (everyone who can see the candidate's
 *   notes) or private (its author, owners and admins).
 * - It may be about one of the candidate's applications the person can see; otherwise it is
 *   about the candidate in general.
 * - The activity log records who wrote which note (not its text: a private note stays private).
 * - `@` and a colleague's name notifies them, if they may see the note (mentions.ts).
 * - The same note by the same person again within two minutes is the one already written (a double
 *   click): nothing new is written, logged or notified.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { repeatWindowStart } from '../../core/repeats.ts'
import { cleanText } from '../../core/untrusted.ts'
import { recordActivity } from '../activity/index.ts'
import { candidateNotFound } from './candidate-service.ts'
import { notify } from '../notifications/index.ts'
import { mentionsOf } from './mentions.ts'
import { applicationReach, candidateReach, reachOf } from './reach.ts'
import { notes } from './table.ts'
import { lockUntilCommit } from '../../db/client.ts'

export const MAX_NOTE_CHARS = 5000

export interface AddNoteInput {
	candidateId: string
	applicationId?: string
	text: string
	private: boolean
}

export async function addNote(deps: AppDeps, actor: Actor, input: AddNoteInput): Promise<{ id: string }> {
	if (!actor.userId || !deps.permissions.can(actor, 'candidates:note')) throw new AppError('FORBIDDEN', 'Your role does not allow writing notes')
	const reach = await reachOf(deps, actor)
	const [candidate] = await deps.database.rows<{ id: string }>(
		sql`select c.id from candidates c where c.id = ${input.candidateId} and ${candidateReach(reach)}`,
	)
	if (!candidate) throw candidateNotFound()
	const text = cleanText(input.text).trim()
	const problems = []
	const length = [...text].length
	if (length < 1 || length > MAX_NOTE_CHARS)
		problems.push({ field: 'text', message: `must be 1 to ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters (it has ${length.toLocaleString('en-US')})` })
	let jobId: string | null = null
	if (input.applicationId) {
		// Absent, another candidate's and out of reach read the same: no hint about what exists.
		const [application] = await deps.database.rows<{ id: string; jobId: string }>(
			sql`select a.id, a.job_id as "jobId" from applications a where a.id = ${input.applicationId} and a.candidate_id = ${candidate.id} and ${applicationReach(reach)}`,
		)
		if (!application) problems.push({ field: 'applicationId', message: 'is not one of this candidate’s applications that you can see' })
		jobId = application?.jobId ?? null
	}
	if (problems.length) throw invalid(problems)
	const mentioned = await mentionsOf(deps, actor, { text, private: input.private, jobId })
	const visibility = input.private ? 'private' : 'shared'
	const applicationId = input.applicationId || null
	return deps.db.transaction(async (tx) => {
		// The same note again moments later (a double click on Add note) is the one already written:
		// nothing is written, logged or notified again (core/repeats.ts).
		await lockUntilCommit(tx, `notes:${candidate.id}:${actor.userId}`)
		const [earlier] = await tx
			.select({ id: notes.id })
			.from(notes)
			.where(
				and(
					eq(notes.candidateId, candidate.id),
					eq(notes.authorUserId, actor.userId!),
					eq(notes.body, text),
					eq(notes.visibility, visibility),
					applicationId ? eq(notes.applicationId, applicationId) : isNull(notes.applicationId),
					gt(notes.createdAt, repeatWindowStart(deps.now())),
				),
			)
			.limit(1)
		if (earlier) return { id: earlier.id }
		const id = newId('note')
		await tx.insert(notes).values({
			id,
			workspaceId: actor.workspaceId,
			candidateId: candidate.id,
			applicationId: input.applicationId || null,
			authorUserId: actor.userId!,
			body: text,
			visibility,
			createdAt: deps.now(),
		})
		await recordActivity(tx, actor, {
			action: 'note.added',
			targetType: 'candidate',
			targetId: candidate.id,
			detail: { noteId: id, visibility, applicationId: input.applicationId || null },
		})
		// The people mentioned are notified in the note's own transaction: the note and its notifications
		// exist together or not at all, and nothing else needs to react. (Through the domain events a
		// consumer would have to read the note's text again to find the mentions: events carry ids only.)
		await notify(tx, {
			workspaceId: actor.workspaceId,
			userIds: mentioned,
			kind: 'mention',
			actorUserId: actor.userId,
			record: { type: 'candidate', id: candidate.id },
			detail: { noteId: id, applicationId: input.applicationId || null },
		})
		return { id }
	})
}
