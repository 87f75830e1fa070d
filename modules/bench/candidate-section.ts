/**
 * The bench section of the candidate page (people who see the bench): the benches the candidate
 * is on, and Add to bench (the service behind `add_to_bench`): a role family, optionally a job —
 * one the candidate applied to, or one of the newest open jobs.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { errorsOf, keptText } from '../../core/http/form.ts'
import { html } from '../../core/html.ts'
import type { PageSection, SectionContext } from '../../core/module.ts'
import { csrfField, dataTable, selectField, when } from '../../core/ui.ts'
import { candidateApplicationChoices } from '../candidates/index.ts'
import { listJobs } from '../jobs/index.ts'
import { familyLabel, FAMILY_LABELS, ROLE_FAMILIES } from './family.ts'
import { BENCH_COLUMNS, benchViews, type BenchRow } from './service.ts'

export const BENCH_FORM = 'bench'
/** Open jobs offered besides the candidate's own (newest first). */
const OPEN_JOBS_OFFERED = 50

/** The candidate's bench entries (one per role family at most), newest first. */
export async function candidateBenchEntries(deps: AppDeps, actor: Actor, candidateId: string) {
	const rows = await deps.database.rows<BenchRow>(
		sql`select ${BENCH_COLUMNS} from bench_entries b where b.workspace_id = ${actor.workspaceId} and b.candidate_id = ${candidateId} order by b.added_at desc, b.id desc`,
	)
	return benchViews(deps, actor, rows)
}

type Entry = Awaited<ReturnType<typeof candidateBenchEntries>>[number]

/** Jobs the form offers: the candidate's own first, then the newest open jobs. */
export async function jobChoices(deps: AppDeps, actor: Actor, candidateId: string): Promise<(readonly [string, string])[]> {
	const [own, open] = await Promise.all([
		candidateApplicationChoices(deps, actor, candidateId),
		listJobs(deps, actor, { status: 'Open', limit: OPEN_JOBS_OFFERED }),
	])
	const seen = new Set<string>()
	const out: (readonly [string, string])[] = []
	for (const [id, label] of [
		...own.map((a) => [a.jobId, `${a.jobTitle} (applied)`] as const),
		...open.jobs.map((j) => [j.id, `${j.title}${j.location ? ` — ${j.location}` : ''}`] as const),
	]) {
		if (seen.has(id)) continue
		seen.add(id)
		out.push([id, label])
	}
	return out
}

export const benchSection: PageSection = {
	page: 'candidate',
	order: 30,
	permission: 'bench:read',
	notices: { 'bench-added': 'Added to the bench.', 'bench-unchanged': 'The candidate is already on that bench: nothing changed.' },
	async render(deps: AppDeps, session: PageSession, candidateId: string, { refused, notice }: SectionContext = {}) {
		const actor = session.actor
		const canAdd = deps.permissions.can(actor, 'bench:write')
		const [entries, jobs] = await Promise.all([candidateBenchEntries(deps, actor, candidateId), canAdd ? jobChoices(deps, actor, candidateId) : []])
		const errors = errorsOf(refused, BENCH_FORM)
		return html`<section class="card" id="bench" aria-labelledby="bench-h"><h2 id="bench-h">Bench</h2>
${dataTable<Entry>({
	caption: 'Benches the candidate is on',
	hideCaption: true,
	rows: entries,
	empty: 'Not on the bench.',
	columns: [
		{ label: 'Role family', cell: (e) => familyLabel(e.roleFamily) },
		{ label: 'For the job', cell: (e) => (e.job ? html`<a href="/jobs/${e.job.id}">${e.job.title || 'A job'}</a>` : 'Any') },
		{ label: 'Added', cell: (e) => html`${when(e.addedAt, { time: false })}${e.addedBy ? html` <span class="meta">by ${e.addedBy.name}</span>` : ''}` },
	],
})}
${
	canAdd
		? html`<form method="post" action="/candidates/${candidateId}/bench" class="stack" id="add-to-bench" novalidate><h3>Add to the bench</h3>
${csrfField(session)}
${selectField({ id: 'bench-family', name: 'roleFamily', label: 'Role family', value: keptText(refused, BENCH_FORM, 'roleFamily') ?? '', options: [['', 'Choose a role family'], ...ROLE_FAMILIES.map((f) => [f, FAMILY_LABELS[f]] as const)], errors })}
${selectField({ id: 'bench-job', name: 'jobId', label: 'For a job (optional)', value: keptText(refused, BENCH_FORM, 'jobId') ?? '', options: [['', 'No particular job'], ...jobs], errors })}
<button type="submit">Add to bench</button>${notice}</form>`
		: ''
}</section>`
	},
}
