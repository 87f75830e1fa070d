/** The bench page (`/bench`): people on the bench, newest first, filtered by role family. */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage } from '../../core/html.ts'
import { dataTable, daysSince, pageHeader, pager, selectField, when } from '../../core/ui.ts'
import { FAMILY_LABELS, familyLabel, ROLE_FAMILIES, type RoleFamily } from './family.ts'
import type { benchViews } from './service.ts'

type Entry = Awaited<ReturnType<typeof benchViews>>[number]

/** Skills shown in a row; the candidate's page has them all. */
const SKILLS_SHOWN = 8

export function benchPage(
	deps: AppDeps,
	session: PageSession,
	view: { roleFamily?: RoleFamily; bench: Entry[]; nextCursor: string | null; paged: boolean },
): Response {
	const family = view.roleFamily ? FAMILY_LABELS[view.roleFamily] : null
	const now = deps.now()
	return portalPage(
		deps,
		session,
		{ title: family ? `Bench: ${family}` : 'Bench', current: '/bench' },
		html`${pageHeader({ title: 'Bench', meta: 'People you market to clients, newest on the bench first.' })}
<form method="get" action="/bench" class="filters card">
${selectField({ id: 'family', label: 'Role family', value: view.roleFamily ?? '', options: [['', 'Every role family'], ...ROLE_FAMILIES.map((f) => [f, FAMILY_LABELS[f]] as const)] })}
<button type="submit">Show</button></form>
<section class="card" aria-labelledby="list-h"><h2 id="list-h" class="visually-hidden">${family ? `${family} bench` : 'Bench'}</h2>
${dataTable<Entry>({
	caption: family ? `People on the ${family} bench` : 'People on the bench',
	hideCaption: true,
	rows: view.bench,
	empty: view.paged
		? 'No more people on this bench.'
		: family
			? `Nobody is on the ${family} bench. Add people from their candidate page.`
			: 'Nobody is on the bench yet. Add people from their candidate page.',
	columns: [
		{
			label: 'Candidate',
			cell: (e) =>
				html`<a href="/candidates/${e.candidate.id}">${e.candidate.name || 'A candidate'}</a>${e.candidate.headline ? html`<br><span class="meta">${e.candidate.headline}</span>` : ''}`,
		},
		{ label: 'Role family', cell: (e) => familyLabel(e.roleFamily) },
		{
			label: 'Skills',
			cell: (e) =>
				e.skills.length
					? `${e.skills.slice(0, SKILLS_SHOWN).join(', ')}${e.skills.length > SKILLS_SHOWN ? ` and ${e.skills.length - SKILLS_SHOWN} more` : ''}`
					: '—',
		},
		{ label: 'For job', cell: (e) => (e.job ? html`<a href="/jobs/${e.job.id}">${e.job.title}</a>` : html`<span class="meta">Any job</span>`) },
		{
			label: 'Added',
			cell: (e) =>
				html`${when(e.addedAt, { time: false })}<br><span class="meta">${daysSince(e.addedAt, now)} on the bench${e.addedBy ? ` · by ${e.addedBy.name}` : ''}</span>`,
		},
		{ label: 'Available', cell: (e) => (e.availableFrom && e.availableFrom > now.toISOString().slice(0, 10) ? when(e.availableFrom, { time: false }) : 'Now') },
	],
})}
${pager({ base: view.roleFamily ? `/bench?family=${view.roleFamily}` : '/bench', next: view.nextCursor, first: !view.paged })}</section>`,
	)
}
