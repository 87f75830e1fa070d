/**
 * Scheduling on pages: the Scheduled interviews section of the application page (with **Schedule
 * interview**, each interview's Reschedule and Cancel), and the schedule form
 * (`/applications/<id>/schedule`, and `/applications/<id>/schedule/<interview id>` to reschedule)
 * with each interviewer's free/busy on the chosen day where their calendar is connected.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage, textOf, type SafeHtml } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { currentTimeZone, dayKey, formatDate, formatEndAfter, formatTime, localInputValue, nextDay, startOfDay, zoneName } from '../../core/time.ts'
import { actionButton, checkboxes, csrfField, errorSummary, pageHeader, selectField, tag, textField, when, type FieldError } from '../../core/ui.ts'
import { busyTimes } from '../calendar/index.ts'
import { applicationCard } from '../candidates/index.ts'
import {
	hasEnded,
	interviewersFor,
	interviewsOfApplication,
	LENGTHS,
	minutesOf,
	scheduledBusy,
	WRITE,
	type Interviewer,
	type ScheduledInterview,
} from './service.ts'

export interface Kept {
	values: Record<string, string | string[]>
	errors: FieldError[]
}

function interviewItem(session: PageSession, i: ScheduledInterview, canChange: boolean, now: Date): SafeHtml {
	const cancelled = i.status === 'cancelled'
	const end = new Date(i.start.getTime() + i.minutes * 60_000)
	const past = hasEnded(i, now)
	// A past interview can be scheduled again (a no-show), not cancelled: it took place.
	const cancel = past
		? ''
		: actionButton({
				session,
				action: `/applications/${i.applicationId}/schedule/${i.id}/cancel`,
				label: 'Cancel interview',
				style: 'danger',
				confirm: 'Cancel this interview? Everyone invited gets the cancellation.',
			})
	const actions =
		canChange && !cancelled
			? html`<div class="actions"><a class="button secondary" href="/applications/${i.applicationId}/schedule/${i.id}">Reschedule</a>${cancel}</div>`
			: ''
	return html`<li><p>${when(i.start)}–<time datetime="${end.toISOString()}">${formatEndAfter(i.start, end)}</time> ${cancelled ? tag('Cancelled', 'neutral') : tag('Scheduled', 'info')}${past && !cancelled ? html` ${tag('Past')}` : ''}</p>
<p class="meta">${i.minutes} minutes with ${i.interviewers.map((p) => p.name).join(', ') || 'no interviewer'}${i.videoUrl ? html` · <a href="${i.videoUrl}">Video link</a>` : ''}</p>${actions}</li>`
}

export const scheduledInterviewsSection: PageSection = {
	page: 'application',
	order: 8,
	permission: 'candidates:read',
	notices: {
		scheduled: 'The interview is scheduled: the invitations are on their way to the interviewers and the candidate.',
		'scheduled-again': 'You scheduled this same interview moments ago: it is scheduled once, and nothing was sent again.',
		'scheduled-busy':
			'The interview is scheduled: the invitations are on their way. Note that an interviewer already had something at that time (another interview, or their calendar): see the free/busy.',
		rescheduled: 'The interview was moved: everyone invited gets the update.',
		cancelled: 'The interview was cancelled: everyone invited gets the cancellation.',
	},
	async render(deps, session, applicationId, context) {
		const list = await interviewsOfApplication(deps, session.actor, applicationId)
		const canChange = deps.permissions.can(session.actor, WRITE)
		const action = canChange ? html`<a class="button secondary" href="/applications/${applicationId}/schedule">Schedule interview</a>` : ''
		return html`<section class="card" id="scheduled" aria-labelledby="scheduled-h"><div class="title-row"><h2 id="scheduled-h">Interviews</h2>${action}</div>${context?.notice ?? ''}
${list.length ? html`<ul class="entries">${list.map((i) => interviewItem(session, i, canChange, deps.now()))}</ul>` : html`<p class="empty">No interview scheduled with the candidate yet.</p>`}</section>`
	},
}

function busyList(people: Interviewer[], busy: Awaited<ReturnType<typeof busyTimes>>, booked: Map<string, { start: Date; end: Date }[]>): SafeHtml {
	return html`<ul class="entries">${people.map((p) => {
		const b = busy.get(p.userId)
		const times = [...(b?.busy ?? []), ...(booked.get(p.userId) ?? []).map((x) => ({ ...x, allDay: false }))].sort(
			(x, y) => x.start.getTime() - y.start.getTime(),
		)
		const label = times.length
			? times.map((t, i) => html`${i ? ', ' : ''}${t.allDay ? 'all day' : html`${formatTime(t.start)}–${formatTime(t.end)}`}`)
			: b?.connected
				? 'free all day'
				: 'no busy times known'
		return html`<li><strong>${p.name}</strong>: ${times.length ? html`busy ${label}` : label}${b?.connected ? '' : html` <span class="meta">(no calendar connected)</span>`}</li>`
	})}</ul>`
}

/** "45 minutes", "1 hour", "1 h 30 min". */
const lengthLabel = (m: number) => (m < 60 ? `${m} minutes` : m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} hour${m > 60 ? 's' : ''}`)

/**
 * The Length choice: the usual lengths and the interview's own, with `value` chosen. A value sent
 * that is none of them (a refused "0x3C", a length typed by another client) is added as it was sent,
 * so the refused form shows what it had instead of quietly choosing the first length.
 */
function lengthChoice(value: string, current: number | undefined): { value: string; options: (readonly [string, string])[] } {
	const options = [...new Set([...LENGTHS, current ?? 60])].sort((a, b) => a - b).map((m) => [String(m), lengthLabel(m)] as const)
	const minutes = minutesOf(value)
	if (minutes !== null && options.some(([v]) => v === String(minutes))) return { value: String(minutes), options }
	return { value, options: [...options, [value, minutes === null ? value : lengthLabel(minutes)] as const] }
}

export async function schedulePage(
	deps: AppDeps,
	session: PageSession,
	o: { applicationId: string; interview?: ScheduledInterview; day?: string; kept?: Kept; status?: number },
): Promise<Response> {
	const app = await applicationCard(deps, session.actor, o.applicationId)
	const people = await interviewersFor(deps, session.actor.workspaceId, app.jobId)
	const zone = currentTimeZone()
	const v = o.kept?.values ?? {}
	const text = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined)
	const startValue = o.interview ? localInputValue(o.interview.start, zone) : undefined
	const tomorrow = nextDay(dayKey(new Date(), zone))
	const dateValue = text('date') ?? o.day ?? startValue?.slice(0, 10) ?? tomorrow
	// The day whose busy times are shown: the one typed when it is a real date (the form says what is wrong with it otherwise).
	const day = startOfDay(dateValue, zone) && startOfDay(nextDay(dateValue), zone) ? dateValue : tomorrow
	const from = startOfDay(day, zone) ?? new Date()
	const to = startOfDay(nextDay(day), zone) ?? new Date(from.getTime() + 86_400_000)
	const ids = people.map((p) => p.userId)
	const [busy, booked] = await Promise.all([
		busyTimes(deps, session.actor.workspaceId, ids, from, to),
		scheduledBusy(deps, session.actor.workspaceId, ids, from, to),
	])
	const chosen = Array.isArray(v.interviewers)
		? v.interviewers
		: typeof v.interviewers === 'string'
			? [v.interviewers]
			: (o.interview?.interviewers.map((p) => p.userId) ?? (session.actor.userId ? [session.actor.userId] : []))
	const title = o.interview ? 'Reschedule interview' : 'Schedule interview'
	const action = o.interview ? `/applications/${app.id}/schedule/${o.interview.id}` : `/applications/${app.id}/schedule`
	const errors = o.kept?.errors
	return portalPage(
		deps,
		session,
		{ title: `${title}: ${app.candidateName}, ${app.jobTitle}`, current: '/candidates', hasErrors: Boolean(errors?.length), status: o.status },
		html`${errorSummary(errors)}
${pageHeader({
	crumbs: [
		['/candidates', 'Candidates'],
		[`/applications/${app.id}`, `${textOf(app.candidateName)}, ${textOf(app.jobTitle)}`],
	],
	title,
	meta: html`${app.candidateName} · ${app.jobTitle}`,
})}
<div class="grid-2 sections"><section class="card" aria-labelledby="when-h"><h2 id="when-h">When and who</h2><form method="post" action="${action}" class="stack" novalidate>${csrfField(session)}
${checkboxes({ id: 'interviewers', name: 'interviewers', legend: 'Interviewers', options: people.map((p) => [p.userId, p.name] as const), checked: chosen, errors })}
${textField({ id: 'date', label: 'Date', type: 'date', value: dateValue, hint: `In your time zone, ${zone} (${zoneName(from, zone)}).`, errors })}
${textField({ id: 'time', label: 'Time', type: 'time', value: text('time') ?? startValue?.slice(11) ?? '10:00', errors })}
${selectField({ id: 'minutes', label: 'Length', ...lengthChoice(text('minutes') ?? String(o.interview?.minutes ?? 60), o.interview?.minutes), errors })}
${textField({ id: 'videoUrl', label: 'Video link (optional)', type: 'url', value: text('videoUrl') ?? o.interview?.videoUrl ?? '', hint: 'The meeting address (Zoom, Teams, Google Meet…), sent with the invitation.', maxlength: 500, errors })}
<button type="submit">${o.interview ? 'Send the new time' : 'Schedule and send invitations'}</button></form></section>
<section class="card" aria-labelledby="busy-h"><h2 id="busy-h">Free/busy on ${formatDate(from, zone)}</h2>
<form method="get" action="${o.interview ? `/applications/${app.id}/schedule/${o.interview.id}` : `/applications/${app.id}/schedule`}" class="inline-form">${textField({ id: 'day', label: 'Show the day', type: 'date', value: day })}<button type="submit" class="secondary">Show free/busy</button></form>
${busyList(people, busy, booked)}
<p class="meta">Busy times come from each person’s own calendar feed (Settings › Calendar feed) and the interviews already scheduled here, in your time zone.</p></section></div>`,
	)
}
