/** The vendors pages: the list (`/vendors`) and one vendor (contact, submission rules, the sections of other modules: open jobs, submissions; keys and API access for owners and admins). */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import { actionButton, copyButton, dataTable, facts, notice, pageHeader, pager, plural, tag, when } from '../../core/ui.ts'
import type { VendorDetail, VendorSummary } from './directory.ts'
import { DOCUMENT_LABELS, type DocumentKind } from './model.ts'
import type { VendorKeyView } from './service.ts'

const METHOD: Record<string, string> = { email: 'By e-mail', portal: 'On its own portal' }
const accessTag = (on: boolean) => (on ? tag('API access on', 'good') : tag('API access off', 'warn'))

export function vendorListPage(
	deps: AppDeps,
	session: PageSession,
	view: { vendors: VendorSummary[]; nextCursor: string | null; paged: boolean; managesKeys: boolean },
): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Vendors', current: '/vendors' },
		html`${pageHeader({ title: 'Vendors', meta: 'The staffing partners whose jobs you fill, A to Z.' })}
<section class="card" aria-labelledby="list-h"><h2 id="list-h" class="visually-hidden">Vendors</h2>
${dataTable<VendorSummary>({
	caption: 'Vendors',
	hideCaption: true,
	rows: view.vendors,
	empty: view.paged ? 'No more vendors.' : 'No vendors yet: the operator adds them with the vendor create command.',
	columns: [
		{ label: 'Vendor', cell: (v) => html`<a href="/vendors/${v.id}">${v.name}</a>` },
		{ label: 'Takes submissions', cell: (v) => (v.submissionMethod ? METHOD[v.submissionMethod] : 'Not set') },
		{ label: 'Open jobs', numeric: true, cell: (v) => v.openJobCount.toLocaleString('en-US') },
		{ label: 'Submissions', numeric: true, cell: (v) => v.submissionCount.toLocaleString('en-US') },
		...(view.managesKeys ? [{ label: 'API access', cell: (v: VendorSummary) => accessTag(v.apiAccess) }] : []),
	],
})}
${pager({ base: '/vendors', next: view.nextCursor, first: !view.paged })}</section>`,
	)
}

export interface VendorPageView {
	vendor: VendorDetail
	/** Sections other modules add (the open jobs, the submissions). */
	sections: SafeHtml[]
	/** Owners and admins: the keys (never the keys themselves) and, right after creating one, the new key once. */
	keys: VendorKeyView[] | null
	newKey?: { keyId: string; apiKey: string }
	notice?: string | null
}

function rulesSection(v: VendorDetail): SafeHtml {
	const label = (kinds: readonly string[]) => kinds.map((k) => DOCUMENT_LABELS[k as DocumentKind] ?? k)
	const by = Object.entries(v.documentRules.byWorkAuthorization).filter(([, kinds]) => kinds.length)
	return html`<section class="card" aria-labelledby="rules-h"><h2 id="rules-h">Documents a submission needs</h2>
${v.documentRules.always.length ? html`<p>For every candidate:</p><ul class="checklist">${label(v.documentRules.always).map((l) => html`<li>${l}</li>`)}</ul>` : html`<p>No document is needed for every candidate.</p>`}
${by.length ? html`<p>Also, by the candidate’s work authorization:</p><dl class="facts">${by.map(([auth, kinds]) => html`<div><dt>${auth}</dt><dd>${label(kinds).join(', ')}</dd></div>`)}</dl>` : ''}</section>`
}

function keysSection(session: PageSession, view: VendorPageView, keys: VendorKeyView[]): SafeHtml {
	const v = view.vendor
	const live = keys.filter((k) => !k.revokedAt).length
	return html`<section class="card" id="api" aria-labelledby="api-h"><h2 id="api-h">API access and keys</h2>
${
	view.newKey
		? html`<div class="notice" role="status"><p><strong>API key ${view.newKey.keyId} created.</strong> Copy it now and give it to ${v.name}: it is shown only once.</p>
<p class="secret"><code id="new-key">${view.newKey.apiKey}</code> ${copyButton('new-key')}</p></div>`
		: ''
}
<p>${accessTag(v.apiAccess)} ${v.apiAccess ? `${v.name} can publish and change its jobs with any live key.` : `Every key of ${v.name} is refused (403) until API access is switched on again.`}</p>
<div class="actions">${
		v.apiAccess
			? actionButton({
					session,
					action: `/vendors/${v.id}/api-access/off`,
					label: 'Switch API access off',
					style: 'danger',
					confirm: `Switch API access off for ${v.name}? Its keys stop working until it is switched on again.`,
				})
			: actionButton({ session, action: `/vendors/${v.id}/api-access/on`, label: 'Switch API access on' })
	}
${actionButton({ session, action: `/vendors/${v.id}/keys`, label: 'Create key', style: 'secondary' })}</div>
<h3>Keys</h3>
<p class="meta">${plural(live, 'live key')}. A key is shown once, when it is created; Benchline keeps only a fingerprint of it.</p>
${dataTable<VendorKeyView>({
	caption: `API keys of ${v.name}`,
	hideCaption: true,
	rows: keys,
	empty: 'No keys: create one for the vendor to publish jobs.',
	columns: [
		{ label: 'Key', cell: (k) => html`<code>${k.id}</code><br><span class="meta">ends in …${k.lastFour}</span>` },
		{ label: 'Created', cell: (k) => when(k.createdAt) },
		{ label: 'Last used', cell: (k) => (k.lastUsedAt ? when(k.lastUsedAt) : 'never') },
		{ label: 'Status', cell: (k) => (k.revokedAt ? html`${tag('Revoked', 'neutral')} <span class="meta">${when(k.revokedAt)}</span>` : tag('Live', 'good')) },
		{
			label: 'Action',
			cell: (k) =>
				k.revokedAt
					? ''
					: actionButton({
							session,
							action: `/vendors/${v.id}/keys/${k.id}/revoke`,
							label: 'Revoke key',
							style: 'danger',
							confirm: `Revoke the key ending in …${k.lastFour}? It stops working on its next request, and the webhook endpoints the vendor added or last moved with it are switched off.`,
						}),
		},
	],
})}</section>`
}

export function vendorPage(deps: AppDeps, session: PageSession, view: VendorPageView): Response {
	const v = view.vendor
	// Only web addresses become links (the service accepts no other; this keeps it so on the page).
	const portal = v.submission.portalUrl && /^https?:\/\//i.test(v.submission.portalUrl) ? v.submission.portalUrl : null
	return portalPage(
		deps,
		session,
		{ title: v.name, current: '/vendors' },
		html`${notice(view.notice)}
${pageHeader({ crumbs: [['/vendors', 'Vendors']], title: v.name, meta: html`Added ${when(v.createdAt, { time: false })} · ${plural(v.openJobCount, 'open job')} · ${plural(v.submissionCount, 'submission')}` })}
<section class="card" aria-labelledby="contact-h"><h2 id="contact-h">Contact and submissions</h2>
${facts([
	['Contact', v.contact.name],
	['Contact e-mail', v.contact.email ? html`<a href="mailto:${v.contact.email}">${breakable(v.contact.email)}</a>` : null],
	['Contact phone', v.contact.phone],
	[
		'Takes submissions',
		v.submission.method === 'email'
			? html`By e-mail to <a href="mailto:${v.submission.email}">${breakable(v.submission.email)}</a>`
			: v.submission.method === 'portal'
				? portal
					? html`On its own portal: <a href="${portal}" rel="noopener noreferrer">${breakable(portal)}</a>`
					: html`On its own portal: ${v.submission.portalUrl}`
				: 'Not set',
	],
	['Jobs', `${v.jobCount.toLocaleString('en-US')} in all, ${v.openJobCount.toLocaleString('en-US')} open`],
	['Last submission', v.lastSubmittedAt ? when(v.lastSubmittedAt) : 'none yet'],
])}</section>
${rulesSection(v)}
${view.sections}
${view.keys ? keysSection(session, view, view.keys) : ''}`,
	)
}
