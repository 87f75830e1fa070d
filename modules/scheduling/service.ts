/**
 * Scheduling interviews with people: who, when, for how long, where (a video link), and the
 * invitations that keep everyone's calendar right.
 *
 * Rules:
 * - People with `scheduling:write` (owners, admins, recruiters, hiring managers) schedule,
 *   reschedule and cancel interviews on applications they can reach (hiring managers: their jobs').
 * - Interviewers are members of the workspace who can reach the application: owners, admins and
 *   recruiters, and hiring managers on the job's hiring team; at least one, at most 10.
 * - The date and time are read in the scheduler's time zone (their profile), to the minute (a time
 *   with seconds other than :00 is refused); the interview starts in the future and lasts 15
 *   minutes to 8 hours, a whole number of minutes written in plain decimal digits (`minutesOf`).
 *   A video link, when given, is an http(s) address.
 * - Scheduling sends each interviewer and the candidate an e-mail with an iCalendar invitation
 *   (METHOD:REQUEST, the scheduler's TZID) through the outbox, in the same transaction; a hiring
 *   manager's names the candidate without their address (the role sees no contact details). A
 *   reschedule sends the update with the same UID and a higher SEQUENCE (an interviewer taken off
 *   gets a cancellation); a cancellation sends METHOD:CANCEL with the same UID to everyone.
 * - Against a form sent twice (or a client's retry): the same interview again within 2 minutes
 *   (same application, time and interviewers) answers the one scheduled and sends nothing; decided
 *   under a lock on the application, so submissions at once count too. Interviewers already busy
 *   then (another interview here, their calendar feed) are named, and scheduled all the same.
 * - Every change is in the activity log.
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Actor, Role } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { repeatWindowStart } from '../../core/repeats.ts'
import { AppError, invalid, type FieldError } from '../../core/errors.ts'
import { formatDateTime, isTimeZone, parseLocal, UTC } from '../../core/time.ts'
import { lockUntilCommit, type Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { busyTimes } from '../calendar/index.ts'
import { listPeople, profileOf, timeZonesOf } from '../auth/index.ts'
import { applicationParties, reachableApplication } from '../candidates/index.ts'
import { jobRequirements, jobTeamIds } from '../jobs/index.ts'
import { enqueueMail } from '../outbox/index.ts'
import { invitationIcs } from './ical.ts'
import { scheduledInterviewers, scheduledInterviews } from './table.ts'

export const WRITE = 'scheduling:write'
/** The permission to see candidates' contact details (`modules/candidates`). */
const CONTACT = 'candidates:contact'
export const MIN_MINUTES = 15
export const MAX_MINUTES = 480
export const MAX_INTERVIEWERS = 10
export const LENGTHS = [15, 30, 45, 60, 90, 120] as const

const notFound = () => new AppError('NOT_FOUND', 'No scheduled interview with this id')

export interface Interviewer {
	userId: string
	name: string
	email: string
	/** Whether their role may see candidates' contact details (hiring managers may not): their invitation names the candidate without an address otherwise. */
	seesContact: boolean
}

/** An interviewer of the people of the workspace (their role and grants decide `seesContact`). */
const interviewerOf = (deps: AppDeps, p: { userId: string; name: string; email: string; role: string; grants: readonly string[] }): Interviewer => ({
	userId: p.userId,
	name: p.name,
	email: p.email,
	seesContact: deps.permissions.can({ role: p.role as Role, grants: p.grants }, CONTACT),
})

/** Who may interview on an application's job: owners, admins, recruiters, and hiring managers on its team. */
export async function interviewersFor(deps: AppDeps, workspaceId: string, jobId: string): Promise<Interviewer[]> {
	const [people, team] = await Promise.all([listPeople(deps.db, workspaceId), jobTeamIds(deps, workspaceId, jobId)])
	return people
		.filter((p) => ['owner', 'admin', 'recruiter'].includes(p.role) || (p.role === 'hiring_manager' && team.includes(p.userId)))
		.map((p) => interviewerOf(deps, p))
}

async function reachable(deps: AppDeps, actor: Actor, applicationId: string) {
	if (!deps.permissions.can(actor, WRITE)) throw new AppError('FORBIDDEN', 'Your role cannot schedule interviews')
	const key = await reachableApplication(deps, actor, { applicationId })
	if (!key) throw new AppError('NOT_FOUND', 'No application with this id')
	return (await applicationParties(deps, actor.workspaceId, [key.id])).get(key.id)!
}

/** The scheduler's zone: their profile's (a stored zone the runtime no longer knows reads as UTC). */
async function zoneOf(deps: AppDeps, actor: Actor): Promise<string> {
	if (!actor.userId) return UTC
	const { timeZone } = await profileOf(deps.db, actor.userId)
	return isTimeZone(timeZone) ? timeZone : UTC
}

export interface ScheduleInput {
	interviewerIds: string[]
	/** `YYYY-MM-DD` and `HH:MM` (or `HH:MM:00`), in the scheduler's time zone. */
	date: string
	time: string
	/** Whole minutes: a number, or its decimal digits as a form sends them (`minutesOf`). */
	minutes: string | number
	videoUrl: string
}

/**
 * The length as given, in whole minutes: a whole number, or text of plain decimal digits (spaces
 * around them aside); null for anything else. `Number()` read "0x3C" and "6e1" as 60 and "" as 0, so
 * a length nobody typed was scheduled; the form and every other caller are read here, the one place.
 */
export function minutesOf(value: string | number): number | null {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null
	const text = value.trim()
	return /^\d{1,6}$/.test(text) ? Number(text) : null
}

interface Checked {
	interviewers: Interviewer[]
	start: Date
	minutes: number
	videoUrl: string | null
	zone: string
}

async function check(deps: AppDeps, actor: Actor, jobId: string, input: ScheduleInput): Promise<Checked> {
	const problems: FieldError[] = []
	const zone = await zoneOf(deps, actor)
	const eligible = await interviewersFor(deps, actor.workspaceId, jobId)
	const ids = [...new Set(input.interviewerIds)]
	const interviewers = eligible.filter((p) => ids.includes(p.userId))
	if (!ids.length) problems.push({ field: 'interviewers', message: 'Choose at least one interviewer' })
	else if (interviewers.length < ids.length) problems.push({ field: 'interviewers', message: 'Choose interviewers among the people listed' })
	else if (ids.length > MAX_INTERVIEWERS) problems.push({ field: 'interviewers', message: `Choose at most ${MAX_INTERVIEWERS} interviewers` })
	const start = parseLocal(input.date, input.time, zone)
	if (!start) problems.push({ field: 'date', message: 'Enter the date and time of the interview' })
	else if (start <= deps.now()) problems.push({ field: 'date', message: `The interview must start in the future (times are in your time zone, ${zone})` })
	// Interviews are scheduled to the minute: the e-mail shows hours and minutes, and a start of 10:00:59
	// went into the invitation as 10:00:59 while the e-mail said 10:00. Refused rather than dropped, so no
	// time is changed silently; the time field sends HH:MM, and HH:MM:00 is still the same minute.
	else if (start.getTime() % 60_000 !== 0) problems.push({ field: 'time', message: 'Enter the time in hours and minutes (HH:MM), without seconds' })
	const minutes = minutesOf(input.minutes)
	if (minutes === null) problems.push({ field: 'minutes', message: 'Enter the length as a whole number of minutes, like 60' })
	else if (minutes < MIN_MINUTES || minutes > MAX_MINUTES)
		problems.push({ field: 'minutes', message: `The length is ${MIN_MINUTES} minutes to ${MAX_MINUTES / 60} hours` })
	const link = input.videoUrl.trim()
	let videoUrl: string | null = null
	if (link) {
		const url = URL.canParse(link) ? new URL(link) : null
		if (!url || !['https:', 'http:'].includes(url.protocol) || link.length > 500 || /\s/.test(link))
			problems.push({ field: 'videoUrl', message: 'The video link is a web address starting with https://' })
		else videoUrl = url.href
	}
	if (problems.length) throw invalid(problems)
	return { interviewers, start: start!, minutes: minutes!, videoUrl, zone }
}

interface Sent {
	id: string
	method: 'REQUEST' | 'CANCEL'
	sequence: number
	start: Date
	minutes: number
	zone: string
	videoUrl: string | null
	jobTitle: string
	candidate: { id: string; name: string; email: string }
	organizer: { name: string; email: string }
	/** Everyone on the invitation (interviewers); `to` the ones this mail goes to. */
	interviewers: Interviewer[]
	to: Interviewer[]
	/** The candidate gets it too. */
	toCandidate: boolean
}

/** The invitations of one change: one e-mail per recipient, each with the same iCalendar. */
async function sendInvitations(deps: AppDeps, tx: Db, actor: Actor, s: Sent): Promise<void> {
	const host = new URL(deps.config.baseUrl).hostname
	const summary = `Interview: ${s.candidate.name} for ${s.jobTitle}`
	// Interviewers whose role may not see the candidate's contact details (hiring managers) get the
	// invitation without the candidate's address: the candidate is not among its attendees.
	const invitation = (withCandidate: boolean) =>
		invitationIcs({
			method: s.method,
			uid: `${s.id}@${host}`,
			sequence: s.sequence,
			start: s.start,
			minutes: s.minutes,
			timeZone: s.zone,
			summary,
			description: `Interview of ${s.candidate.name} for ${s.jobTitle}.${s.videoUrl ? `\nVideo link: ${s.videoUrl}` : ''}`,
			videoUrl: s.videoUrl,
			organizer: s.organizer,
			attendees: [
				...s.interviewers.map((p) => ({ name: p.name, email: p.email })),
				...(withCandidate ? [{ name: s.candidate.name, email: s.candidate.email }] : []),
			],
			stamp: deps.now(),
		})
	const full = invitation(true)
	const withoutContact = s.to.every((p) => p.seesContact) ? full : invitation(false)
	const zones = await timeZonesOf(
		tx,
		s.to.map((p) => p.userId),
	)
	const lines = (zone: string) =>
		[
			`When: ${formatDateTime(s.start, zone)} (${s.minutes} minutes)`,
			s.videoUrl ? `Video link: ${s.videoUrl}` : 'Video link: to follow',
			`With: ${s.interviewers.map((p) => p.name).join(', ')}`,
		].join('\n')
	const verb = s.method === 'CANCEL' ? 'Cancelled' : s.sequence ? 'Moved' : 'Invitation'
	const mails = [
		...s.to.map((p) => ({ to: p.email, zone: zones.get(p.userId) ?? s.zone, candidate: false, content: p.seesContact ? full : withoutContact })),
		...(s.toCandidate ? [{ to: s.candidate.email, zone: s.zone, candidate: true, content: full }] : []),
	]
	for (const m of mails) {
		const text =
			s.method === 'CANCEL'
				? `The interview ${m.candidate ? `for ${s.jobTitle}` : `of ${s.candidate.name} for ${s.jobTitle}`} on ${formatDateTime(s.start, m.zone)} is cancelled.\n\n${actor.name}`
				: `${m.candidate ? `Hello ${s.candidate.name.split(' ')[0]},\n\nWe would like to meet you for ${s.jobTitle}.` : `You are interviewing ${s.candidate.name} for ${s.jobTitle}.`}${s.sequence ? ' The interview has a new time.' : ''}\n\n${lines(m.zone)}\n\nThe invitation is attached: your calendar app can add it.\n\n${actor.name}`
		await enqueueMail(
			tx,
			{
				workspaceId: actor.workspaceId,
				to: m.to,
				subject: `${verb}: ${m.candidate ? `interview for ${s.jobTitle}` : summary}`.replace(/[\r\n]+/g, ' '),
				text,
				related: { type: 'scheduled_interview', id: s.id },
				recipient: m.candidate ? { type: 'candidate', id: s.candidate.id } : undefined,
				calendar: { method: s.method, content: m.content },
				sentBy: actor.userId,
			},
			deps,
		)
	}
}

async function parts(deps: AppDeps, actor: Actor, jobId: string) {
	const [job, organizer] = await Promise.all([
		jobRequirements(deps, actor.workspaceId, [jobId]).then((m) => m.get(jobId)),
		actor.userId ? profileOf(deps.db, actor.userId) : Promise.resolve({ name: actor.name, email: `no-reply@${new URL(deps.config.baseUrl).hostname}` }),
	])
	return { jobTitle: job?.title ?? 'the job', organizer: { name: organizer.name, email: organizer.email } }
}

export interface Scheduled {
	id: string
	/** The same interview was scheduled moments ago (`REPEAT_WINDOW_MS`): that one is answered, and nothing was sent again. */
	repeated: boolean
	/** Interviewers already busy at that time (another interview here, or their calendar feed): scheduled all the same. */
	busy: string[]
}

/** Decide: an interview of the application at the same time with the same interviewers, scheduled moments ago. */
async function repeatedInterview(tx: Db, applicationId: string, c: Checked, now: Date): Promise<string | null> {
	const recent = await tx
		.select({ id: scheduledInterviews.id })
		.from(scheduledInterviews)
		.where(
			and(
				eq(scheduledInterviews.applicationId, applicationId),
				eq(scheduledInterviews.status, 'scheduled'),
				eq(scheduledInterviews.startsAt, c.start),
				gt(scheduledInterviews.createdAt, repeatWindowStart(now)),
			),
		)
	if (!recent.length) return null
	const links = await tx
		.select()
		.from(scheduledInterviewers)
		.where(
			inArray(
				scheduledInterviewers.interviewId,
				recent.map((r) => r.id),
			),
		)
	const wanted = c.interviewers.map((i) => i.userId).sort()
	const same = recent.find((r) => {
		const theirs = links.filter((l) => l.interviewId === r.id).map((l) => l.userId)
		return theirs.length === wanted.length && theirs.sort().every((u, i) => u === wanted[i])
	})
	return same?.id ?? null
}

/** The interviewers with something else at that time: an interview already scheduled here, or a busy time of their calendar feed. */
async function alreadyBusy(deps: AppDeps, workspaceId: string, c: Checked): Promise<string[]> {
	const ids = c.interviewers.map((i) => i.userId)
	const end = new Date(c.start.getTime() + c.minutes * 60_000)
	const [booked, feeds] = await Promise.all([scheduledBusy(deps, workspaceId, ids, c.start, end), busyTimes(deps, workspaceId, ids, c.start, end)])
	return c.interviewers.filter((i) => booked.get(i.userId)?.length || feeds.get(i.userId)?.busy.length).map((i) => i.name)
}

/**
 * Schedules an interview on an application and sends the invitations. The same interview again
 * within 2 minutes (same time and interviewers) is the one already scheduled: nothing is sent
 * again. Decided under a lock on the application, so submissions at once see each other.
 */
export async function scheduleInterview(deps: AppDeps, actor: Actor, applicationId: string, input: ScheduleInput): Promise<Scheduled> {
	const app = await reachable(deps, actor, applicationId)
	const c = await check(deps, actor, app.jobId, input)
	const p = await parts(deps, actor, app.jobId)
	const busy = await alreadyBusy(deps, actor.workspaceId, c)
	const id = newId('sch')
	return deps.db.transaction(async (tx) => {
		await lockUntilCommit(tx, `scheduled_interview:${app.id}`)
		const now = deps.now()
		const earlier = await repeatedInterview(tx, app.id, c, now)
		if (earlier) return { id: earlier, repeated: true, busy: [] }
		await tx.insert(scheduledInterviews).values({
			id,
			workspaceId: actor.workspaceId,
			applicationId: app.id,
			candidateId: app.candidateId,
			jobId: app.jobId,
			organizerUserId: actor.userId,
			startsAt: c.start,
			durationMinutes: c.minutes,
			timeZone: c.zone,
			videoUrl: c.videoUrl,
			createdAt: now,
			updatedAt: now,
		})
		await tx.insert(scheduledInterviewers).values(c.interviewers.map((i) => ({ interviewId: id, userId: i.userId })))
		await sendInvitations(deps, tx, actor, {
			id,
			method: 'REQUEST',
			sequence: 0,
			start: c.start,
			minutes: c.minutes,
			zone: c.zone,
			videoUrl: c.videoUrl,
			...p,
			candidate: app.candidate,
			interviewers: c.interviewers,
			to: c.interviewers,
			toCandidate: true,
		})
		await recordActivity(tx, actor, { action: 'interview.scheduled', targetType: 'application', targetId: app.id, detail: { interviewId: id } })
		return { id, repeated: false, busy }
	})
}

export interface ScheduledInterview {
	id: string
	applicationId: string
	candidateId: string
	jobId: string
	start: Date
	minutes: number
	timeZone: string
	videoUrl: string | null
	status: 'scheduled' | 'cancelled'
	sequence: number
	interviewers: Interviewer[]
}

/** The scheduled interviews of an application the actor can reach, soonest first (cancelled ones last). */
export async function interviewsOfApplication(deps: AppDeps, actor: Actor, applicationId: string): Promise<ScheduledInterview[]> {
	const key = await reachableApplication(deps, actor, { applicationId })
	if (!key) return []
	const rows = await deps.db
		.select()
		.from(scheduledInterviews)
		.where(and(eq(scheduledInterviews.applicationId, key.id), eq(scheduledInterviews.workspaceId, actor.workspaceId)))
		.orderBy(sql`${scheduledInterviews.status} = 'cancelled'`, scheduledInterviews.startsAt)
	return withInterviewers(deps, actor.workspaceId, rows)
}

async function withInterviewers(
	deps: AppDeps,
	workspaceId: string,
	rows: (typeof scheduledInterviews.$inferSelect)[],
	db: Db = deps.db,
): Promise<ScheduledInterview[]> {
	if (!rows.length) return []
	const [links, people] = await Promise.all([
		db
			.select()
			.from(scheduledInterviewers)
			.where(
				inArray(
					scheduledInterviewers.interviewId,
					rows.map((r) => r.id),
				),
			),
		listPeople(db, workspaceId),
	])
	const byId = new Map(people.map((p) => [p.userId, interviewerOf(deps, p)]))
	return rows.map((r) => ({
		id: r.id,
		applicationId: r.applicationId,
		candidateId: r.candidateId,
		jobId: r.jobId,
		start: r.startsAt,
		minutes: r.durationMinutes,
		timeZone: r.timeZone,
		videoUrl: r.videoUrl,
		status: r.status as 'scheduled' | 'cancelled',
		sequence: r.sequence,
		interviewers: links
			.filter((l) => l.interviewId === r.id)
			.map((l) => byId.get(l.userId) ?? { userId: l.userId, name: 'Former member', email: '', seesContact: false })
			.filter((p) => p.email),
	}))
}

/** One scheduled interview on an application the actor may change. */
export async function scheduledInterview(deps: AppDeps, actor: Actor, id: string): Promise<ScheduledInterview> {
	const [row] = await deps.db
		.select()
		.from(scheduledInterviews)
		.where(and(eq(scheduledInterviews.id, id), eq(scheduledInterviews.workspaceId, actor.workspaceId)))
	if (!row) throw notFound()
	await reachable(deps, actor, row.applicationId).catch((error) => {
		throw error instanceof AppError && error.code === 'NOT_FOUND' ? notFound() : error
	})
	return (await withInterviewers(deps, actor.workspaceId, [row]))[0]!
}

/**
 * The interview as it is now, its row locked until the transaction ends: a change decides from this,
 * never from what was read before it began (two reschedules at once each took interviewers off the
 * list they had read, so one the other had just invited kept a live invitation). Null once cancelled.
 */
async function lockedInterview(deps: AppDeps, tx: Db, workspaceId: string, id: string): Promise<ScheduledInterview | null> {
	const [row] = await tx
		.select()
		.from(scheduledInterviews)
		.where(and(eq(scheduledInterviews.id, id), eq(scheduledInterviews.workspaceId, workspaceId)))
		.for('update')
	return row && row.status === 'scheduled' ? (await withInterviewers(deps, workspaceId, [row], tx))[0]! : null
}

/** Moves a scheduled interview (time, length, interviewers, link): the update goes out with the same UID, a higher SEQUENCE. */
export async function rescheduleInterview(deps: AppDeps, actor: Actor, id: string, input: ScheduleInput): Promise<void> {
	const before = await scheduledInterview(deps, actor, id)
	if (before.status === 'cancelled') throw new AppError('CONFLICT', 'This interview was cancelled: schedule a new one')
	const app = (await applicationParties(deps, actor.workspaceId, [before.applicationId])).get(before.applicationId)!
	const c = await check(deps, actor, before.jobId, input)
	const p = await parts(deps, actor, before.jobId)
	await deps.db.transaction(async (tx) => {
		// Locked, so two changes at once send SEQUENCE n+1 and n+2, never n+1 twice, and each takes off the interviewers the other left.
		const now = await lockedInterview(deps, tx, actor.workspaceId, id)
		if (!now) throw new AppError('CONFLICT', 'This interview was cancelled: schedule a new one')
		const [row] = await tx
			.update(scheduledInterviews)
			.set({
				startsAt: c.start,
				durationMinutes: c.minutes,
				timeZone: c.zone,
				videoUrl: c.videoUrl,
				sequence: sql`${scheduledInterviews.sequence} + 1`,
				updatedAt: deps.now(),
			})
			.where(eq(scheduledInterviews.id, id))
			.returning({ sequence: scheduledInterviews.sequence })
		await tx.delete(scheduledInterviewers).where(eq(scheduledInterviewers.interviewId, id))
		await tx.insert(scheduledInterviewers).values(c.interviewers.map((i) => ({ interviewId: id, userId: i.userId })))
		const common = { id, sequence: row!.sequence, ...p, candidate: app.candidate }
		const removed = now.interviewers.filter((b) => !c.interviewers.some((i) => i.userId === b.userId))
		if (removed.length)
			await sendInvitations(deps, tx, actor, {
				...common,
				method: 'CANCEL',
				start: now.start,
				minutes: now.minutes,
				zone: now.timeZone,
				videoUrl: now.videoUrl,
				interviewers: removed,
				to: removed,
				toCandidate: false,
			})
		await sendInvitations(deps, tx, actor, {
			...common,
			method: 'REQUEST',
			start: c.start,
			minutes: c.minutes,
			zone: c.zone,
			videoUrl: c.videoUrl,
			interviewers: c.interviewers,
			to: c.interviewers,
			toCandidate: true,
		})
		await recordActivity(tx, actor, { action: 'interview.rescheduled', targetType: 'application', targetId: before.applicationId, detail: { interviewId: id } })
	})
}

/** Whether the interview's time is over (its start plus its length). */
export const hasEnded = (i: Pick<ScheduledInterview, 'start' | 'minutes'>, now: Date): boolean => i.start.getTime() + i.minutes * 60_000 <= now.getTime()

/** Cancels a scheduled interview still to come or under way: METHOD:CANCEL with the same UID to every interviewer and the candidate. */
export async function cancelInterview(deps: AppDeps, actor: Actor, id: string): Promise<void> {
	const before = await scheduledInterview(deps, actor, id)
	if (before.status === 'cancelled') return
	// An interview that has taken place is history: a cancellation would tell everyone it did not.
	if (hasEnded(before, deps.now())) throw new AppError('CONFLICT', 'This interview is over: there is nothing to cancel')
	const app = (await applicationParties(deps, actor.workspaceId, [before.applicationId])).get(before.applicationId)!
	const p = await parts(deps, actor, before.jobId)
	await deps.db.transaction(async (tx) => {
		// As it is now (a reschedule may have just changed it): everyone invited then gets the cancellation.
		const now = await lockedInterview(deps, tx, actor.workspaceId, id)
		if (!now) return
		const [row] = await tx
			.update(scheduledInterviews)
			.set({ status: 'cancelled', sequence: sql`${scheduledInterviews.sequence} + 1`, updatedAt: deps.now() })
			.where(eq(scheduledInterviews.id, id))
			.returning({ sequence: scheduledInterviews.sequence })
		await sendInvitations(deps, tx, actor, {
			id,
			method: 'CANCEL',
			sequence: row!.sequence,
			start: now.start,
			minutes: now.minutes,
			zone: now.timeZone,
			videoUrl: now.videoUrl,
			...p,
			candidate: app.candidate,
			interviewers: now.interviewers,
			to: now.interviewers,
			toCandidate: true,
		})
		await recordActivity(tx, actor, { action: 'interview.cancelled', targetType: 'application', targetId: before.applicationId, detail: { interviewId: id } })
	})
}

/** The interviews already scheduled for these people overlapping `[from, to)`: busy for them, whatever their calendar feed says. */
export async function scheduledBusy(
	deps: AppDeps,
	workspaceId: string,
	userIds: readonly string[],
	from: Date,
	to: Date,
): Promise<Map<string, { start: Date; end: Date }[]>> {
	const out = new Map<string, { start: Date; end: Date }[]>()
	if (!userIds.length) return out
	const rows = await deps.database.rows<{ userId: string; start: Date | string; minutes: number }>(
		sql`select p.user_id as "userId", s.starts_at as start, s.duration_minutes as minutes from ${scheduledInterviews} s join ${scheduledInterviewers} p on p.interview_id = s.id
where s.workspace_id = ${workspaceId} and s.status = 'scheduled' and p.user_id = any(${sql.param([...userIds])}::text[])
and s.starts_at < ${to.toISOString()}::timestamptz and s.starts_at > ${new Date(from.getTime() - MAX_MINUTES * 60_000).toISOString()}::timestamptz
and s.starts_at + make_interval(mins => s.duration_minutes) > ${from.toISOString()}::timestamptz order by s.starts_at`,
	)
	for (const r of rows) {
		const start = new Date(r.start)
		out.set(r.userId, [...(out.get(r.userId) ?? []), { start, end: new Date(start.getTime() + r.minutes * 60_000) }])
	}
	return out
}
