/**
 * The activity log page (owners and admins): who did what, through which door, as sentences,
 * narrowed by person, record type and days (a GET form: the filters live in the address, and the
 * pager keeps them). Filters that are not valid answer 422 with the values kept, never 500.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, type FieldError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import type { HttpKit } from '../../core/module.ts'
import { cleanLine } from '../../core/untrusted.ts'
import { dataTable, errorSummary, pageHeader, pager, selectField, textField, when } from '../../core/ui.ts'
import { type ActivityQuery, activityFilterQuery, readActivityFilters } from './filters.ts'
import { activitySentences, type ActivitySentence } from './sentences.ts'
import { activityChoices, listActivity } from './service.ts'

const PAGE = 50
const THROUGH: Record<string, string> = {
	session: 'in the portal',
	personal_token: 'with the personal token',
	oauth_app: 'with the app',
	vendor_key: 'with the vendor key',
	upload_link: 'through the upload link',
	careers_form: 'on the careers site',
}

const through = (s: ActivitySentence) => {
	const kind = s.row.credentialKind
	if (kind === 'session' || kind === 'careers_form' || kind === 'upload_link') return THROUGH[kind]
	if (kind === 'cli') return 'with the operator CLI'
	return `${THROUGH[kind] ?? 'with'} “${s.row.credentialName}”`
}

/** "vendor_key" → "Vendor key". */
const typeLabel = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ')

const field = t.Optional(t.String({ maxLength: 200 }))
const query = t.Object({ person: field, type: field, from: field, until: field, before: t.Optional(t.String({ maxLength: 200 })) })

interface ActivityView {
	query: ActivityQuery
	choices: Awaited<ReturnType<typeof activityChoices>>
	sentences: ActivitySentence[]
	next: string | null
	paged: boolean
	errors: FieldError[]
}

/** A select's options, with a value that is not among them kept (shown as such) so nothing typed is lost. */
function options(all: [string, string][], value: string | undefined, unknown: string): [string, string][] {
	const v = value?.trim()
	return v && !all.some(([id]) => id === v) ? [...all, [v, `${v} (${unknown})`]] : all
}

function activityPage(deps: AppDeps, session: PageSession, view: ActivityView): Response {
	const q = view.query
	const kept = activityFilterQuery(q)
	const base = `/activity${kept ? `?${kept}` : ''}`
	return portalPage(
		deps,
		session,
		{ title: 'Activity', current: '/activity', hasErrors: view.errors.length > 0, status: view.errors.length ? 422 : 200 },
		html`${pageHeader({ title: 'Activity', meta: 'Every change made through any door, newest first.' })}
${errorSummary(view.errors)}
<form method="get" action="/activity" class="filters card" role="search" aria-label="Filter the activity">
${selectField({
	id: 'person',
	label: 'Person',
	value: q.person?.trim() ?? '',
	options: [
		['', 'Everyone'],
		...options(
			view.choices.people.map((p) => [p.id, p.name]),
			q.person,
			'not in the log',
		),
	],
	errors: view.errors,
})}
${selectField({
	id: 'type',
	label: 'Record type',
	value: q.type?.trim() ?? '',
	options: [
		['', 'Any'],
		...options(
			view.choices.types.map((type) => [type, typeLabel(type)]),
			q.type,
			'not in the log',
		),
	],
	errors: view.errors,
})}
${textField({ id: 'from', label: 'From', type: 'date', value: q.from ?? '', errors: view.errors })}
${textField({ id: 'until', label: 'Until', type: 'date', value: q.until ?? '', errors: view.errors })}
<button type="submit">Show</button>${kept ? html` <a href="/activity">Clear the filters</a>` : ''}</form>
<section class="card" aria-labelledby="activity-h"><h2 id="activity-h" class="visually-hidden">Activity</h2>${dataTable({
			caption: 'Activity, newest first',
			hideCaption: true,
			rows: view.sentences,
			empty: view.errors.length
				? 'Correct the filters to see the activity.'
				: view.paged
					? 'No more lines.'
					: kept
						? 'Nothing in the activity matches these filters.'
						: 'Nothing has happened yet.',
			columns: [
				{ label: 'When', cell: (s) => when(s.row.at) },
				{
					label: 'What happened',
					cell: (s) =>
						html`<span><strong>${s.row.actorName}</strong> ${s.did}${s.target ? html` ${s.target.href ? html`<a href="${s.target.href}">${s.target.name}</a>` : s.target.name}` : ''}${s.change ? ` ${s.change}` : ''}</span>`,
				},
				{ label: 'How', cell: (s) => html`<span class="meta">${through(s)}</span>` },
			],
		})}
${pager({ base, next: view.next, param: 'before', first: !view.paged })}</section>`,
	)
}

export function activityRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'activity.routes' }).use(auth).get(
		'/activity',
		async ({ actor, session, query: q }) => {
			const { before, ...typed } = q
			// Kept on the page as typed, less what draws nothing or controls the terminal (a NUL was echoed into an <option>).
			const asked: ActivityQuery = Object.fromEntries(Object.entries(typed).map(([k, v]) => [k, v === undefined ? v : cleanLine(v, 200)]))
			const choices = await activityChoices(deps, actor.workspaceId)
			const { filters, errors } = readActivityFilters(asked, choices)
			const view: ActivityView = { query: asked, choices, sentences: [], next: null, paged: Boolean(before), errors }
			if (errors.length) return activityPage(deps, session, view)
			try {
				const { rows, nextCursor } = await listActivity(deps, actor.workspaceId, { limit: PAGE, cursor: before, filters })
				return activityPage(deps, session, { ...view, sentences: await activitySentences(deps, actor, rows), next: nextCursor })
			} catch (error) {
				// A page address that was changed by hand: said on the page, the filters kept.
				if (!(error instanceof AppError) || error.code !== 'VALIDATION' || !before) throw error
				const bad = [{ field: 'activity-h', message: 'This page’s address was changed: start again from the first page' }]
				return activityPage(deps, session, { ...view, errors: bad })
			}
		},
		{ session: { permission: 'activity:read' }, query },
	)
}
