/**
 * An erased person's interviews leave no one's calendar holding them. Their records are deleted
 * (data.ts), but an invitation already sent sits in each interviewer's calendar app under its UID,
 * naming the person, until a cancellation with that UID arrives. So, before the rows go: mail
 * still waiting about the interviews is not sent (an invitation queued a moment ago), and every
 * interviewer an invitation of an interview still to come reached gets a METHOD:CANCEL with the
 * same UID and a higher SEQUENCE. The cancellation names no one: only the job and the time.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { formatDateTime } from '../../core/time.ts'
import type { Db } from '../../db/client.ts'
import { profileOf, timeZonesOf } from '../auth/index.ts'
import type { CandidateSubject } from '../candidates/index.ts'
import { enqueueMail, stopMailAbout } from '../outbox/index.ts'
import { invitationIcs } from './ical.ts'
import { hasEnded } from './service.ts'

interface ErasedInterview {
	id: string
	jobTitle: string | null
	startsAt: Date | string
	minutes: number
	timeZone: string
	status: string
	sequence: number
	organizerUserId: string | null
	interviewers: { id: string; name: string; email: string }[]
}

const ERASED_REASON = 'The person it is about was erased'

/** Cancels the person's interviews with everyone an invitation reached (rules in the file header). */
export async function cancelErasedInterviews(deps: AppDeps, tx: Db, s: CandidateSubject): Promise<void> {
	const interviews = await deps.database.rows<ErasedInterview>(
		sql`select i.id, (select j.title from jobs j where j.id = i.job_id) as "jobTitle", i.starts_at as "startsAt", i.duration_minutes as minutes,
			i.time_zone as "timeZone", i.status, i.sequence, i.organizer_user_id as "organizerUserId",
			coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name, 'email', u.email)) from scheduled_interviewers x join users u on u.id = x.user_id where x.interview_id = i.id), '[]') as interviewers
		from scheduled_interviews i where i.candidate_id = ${s.candidateId} and i.workspace_id = ${s.workspaceId}`,
		tx,
	)
	const reached = await stopMailAbout(
		tx,
		s.workspaceId,
		interviews.map((i) => i.id),
		ERASED_REASON,
	)
	const now = deps.now()
	for (const i of interviews) {
		const start = new Date(i.startsAt)
		if (i.status !== 'scheduled' || hasEnded({ start, minutes: i.minutes }, now)) continue
		const told = i.interviewers.filter((p) => reached.get(i.id)?.has(p.email.toLowerCase()))
		if (told.length) await sendCancellations(deps, tx, { ...i, startsAt: start }, told, s.workspaceId)
	}
}

async function sendCancellations(deps: AppDeps, tx: Db, i: ErasedInterview & { startsAt: Date }, to: ErasedInterview['interviewers'], workspaceId: string) {
	const host = new URL(deps.config.baseUrl).hostname
	const organizer = i.organizerUserId ? await profileOf(tx, i.organizerUserId).catch(() => null) : null
	const job = i.jobTitle ?? 'a job'
	const content = invitationIcs({
		method: 'CANCEL',
		uid: `${i.id}@${host}`,
		sequence: i.sequence + 1,
		start: i.startsAt,
		minutes: i.minutes,
		timeZone: i.timeZone,
		summary: `Interview for ${job} (cancelled)`,
		description: 'This interview is cancelled: the candidate’s records were erased.',
		videoUrl: null,
		organizer: { name: organizer?.name ?? 'Benchline', email: organizer?.email ?? `no-reply@${host}` },
		attendees: to.map((p) => ({ name: p.name, email: p.email })),
		stamp: deps.now(),
	})
	const zones = await timeZonesOf(
		tx,
		to.map((p) => p.id),
	)
	for (const p of to)
		await enqueueMail(
			tx,
			{
				workspaceId,
				to: p.email,
				subject: `Cancelled: interview for ${job}`,
				text: `The interview for ${job} on ${formatDateTime(i.startsAt, zones.get(p.id) ?? i.timeZone)} is cancelled: the candidate’s records were erased. Your calendar app removes it with the attached cancellation.`,
				related: { type: 'scheduled_interview', id: i.id },
				calendar: { method: 'CANCEL', content },
			},
			deps,
		)
}
