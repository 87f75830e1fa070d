/** The vendor page's submissions section and the full, paged list of a vendor's submissions (thin adapters over `vendor-submissions.ts`). */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { html, portalPage, type SafeHtml } from '../../core/html.ts'
import type { HttpKit, PageSection } from '../../core/module.ts'
import { dataTable, pageHeader, pager, tag, when, type Tone } from '../../core/ui.ts'
import { DOCUMENT_LABELS, getVendor } from '../vendors/index.ts'
import { vendorSubmissionList, type Delivery, type VendorSubmissionLine } from './vendor-submissions.ts'

const DELIVERY: Record<Delivery, [string, Tone]> = { queued: ['Queued', 'info'], sent: ['Sent', 'good'], failed: ['Not delivered', 'bad'] }

function submissionsTable(lines: VendorSubmissionLine[], empty: string): SafeHtml {
	const seesDocuments = lines.some((l) => l.documents)
	return dataTable<VendorSubmissionLine>({
		caption: 'Candidates submitted to this vendor',
		hideCaption: true,
		rows: lines,
		empty,
		columns: [
			{ label: 'Candidate', cell: (l) => html`<a href="/applications/${l.applicationId}">${l.candidate.name || 'A candidate'}</a>` },
			{ label: 'Job', cell: (l) => html`<a href="/jobs/${l.job.id}">${l.job.title}</a>` },
			{ label: 'Submitted', cell: (l) => html`${when(l.submittedAt)}<br><span class="meta">by ${l.submittedBy}</span>` },
			...(seesDocuments
				? [
						{
							label: 'Documents sent',
							cell: (l: VendorSubmissionLine) => (l.documents?.length ? l.documents.map((k) => DOCUMENT_LABELS[k] ?? k).join(', ') : 'Résumé only'),
						},
					]
				: []),
			{ label: 'Status', cell: (l) => tag(...DELIVERY[l.delivery]) },
		],
	})
}

const ON_PAGE = 10

/** The vendor page's newest submissions, with the way to all of them. */
export const vendorSubmissionsSection: PageSection = {
	page: 'vendor',
	order: 20,
	permission: 'vendors:read',
	async render(deps, session, vendorId) {
		const { submissions, nextCursor } = await vendorSubmissionList(deps, session.actor, vendorId, { limit: ON_PAGE })
		return html`<section class="card" id="submissions" aria-labelledby="submissions-h"><h2 id="submissions-h">Submissions</h2>
${submissionsTable(submissions, 'No candidate has been submitted to this vendor yet.')}
${nextCursor ? html`<p><a href="/vendors/${vendorId}/submissions">All submissions to this vendor</a></p>` : ''}</section>`
	},
}

function submissionsPage(
	deps: AppDeps,
	session: PageSession,
	view: { vendor: { id: string; name: string }; submissions: VendorSubmissionLine[]; nextCursor: string | null; paged: boolean },
): Response {
	const base = `/vendors/${view.vendor.id}/submissions`
	return portalPage(
		deps,
		session,
		{ title: `Submissions to ${view.vendor.name}`, current: '/vendors' },
		html`${pageHeader({
			crumbs: [
				['/vendors', 'Vendors'],
				[`/vendors/${view.vendor.id}`, view.vendor.name],
			],
			title: html`Submissions to ${view.vendor.name}`,
			meta: 'Newest first.',
		})}
<section class="card" aria-labelledby="list-h"><h2 id="list-h" class="visually-hidden">Submissions</h2>
${submissionsTable(view.submissions, view.paged ? 'No more submissions.' : 'No candidate has been submitted to this vendor yet.')}
${pager({ base, next: view.nextCursor, first: !view.paged })}</section>`,
	)
}

export function vendorSubmissionRoutes(deps: AppDeps, kit: HttpKit) {
	return new Elysia({ name: 'documents.vendor-submissions' }).use(kit.auth).get(
		'/vendors/:id/submissions',
		async ({ session, params, query }) => {
			const vendor = await getVendor(deps, session.actor, params.id)
			const page = await vendorSubmissionList(deps, session.actor, vendor.id, { limit: 25, cursor: query.cursor })
			return submissionsPage(deps, session, { vendor, ...page, paged: Boolean(query.cursor) })
		},
		{
			session: { permission: 'vendors:read' },
			params: t.Object({ id: t.String({ minLength: 1, maxLength: 160 }) }),
			query: t.Object({ cursor: t.Optional(t.String({ minLength: 1, maxLength: 64, error: 'cursor is not valid: use the Next page link' })) }),
		},
	)
}
