/**
 * The webhook pages for owners and admins: the workspace's endpoints, its vendors' among them (marked
 * with the vendor's name), with **Add endpoint** (`/settings/webhooks`), and one endpoint with its
 * actions and delivery log (`/settings/webhooks/<id>`). A new or rotated signing secret is shown
 * once, with Copy. A vendor's endpoint has no secret actions: its secret is the vendor's (service.ts).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import {
	actionButton,
	checkboxes,
	copyButton,
	csrfField,
	dataTable,
	errorSummary,
	facts,
	notice,
	pageHeader,
	plural,
	tag,
	textField,
	when,
	type FieldError,
} from '../../core/ui.ts'
import { MAX_URL_LENGTH } from './address.ts'
import { MAX_DESCRIPTION, type DeliveryView, type EndpointView } from './service.ts'
import { firmMayTakeOver, offWords } from './switch-off.ts'
import { EVENT_DESCRIPTIONS, SUBSCRIBABLE, TEST_EVENT } from './types.ts'

/** A refused form: every value typed, and the problems by field id. */
export interface Kept {
	values: { url: string; description: string; events: string[] }
	errors: FieldError[]
}

const statusTag = (e: EndpointView) => (e.enabled ? tag('On', 'good') : tag('Off', 'warn'))

/**
 * Who added it: the workspace, or a vendor with one of its API keys (the vendor's name is the vendor's
 * words). The key named, by its last four characters, is the one that set its address: that added it,
 * or last moved it to another address (service.ts); marked once revoked: what a leaked key left behind.
 */
function addedBy(e: EndpointView): SafeHtml | string {
	if (!e.vendorId) return 'Your workspace'
	const key = e.vendorKey
	return html`${e.vendorName ?? 'A vendor'} <span class="meta">(vendor, ${key ? html`address set with its API key <span class="nowrap">…${key.lastFour}</span>` : 'with its API key'})</span>${key?.revokedAt ? html` ${tag('Key revoked', 'warn')}` : ''}`
}

/** A vendor's description is the vendor's words, and says so. */
const descriptionLabel = (e: EndpointView) => (e.vendorId ? 'Description (written by the vendor)' : 'Description')

function addForm(session: PageSession, kept?: Kept): SafeHtml {
	const v = kept?.values ?? { url: '', description: '', events: [] }
	return html`<section class="card" id="add" aria-labelledby="add-h"><h2 id="add-h">Add an endpoint</h2>
<p>Benchline sends each event you choose to the address as a signed <code>POST</code> (<a href="https://www.standardwebhooks.com/" rel="noopener noreferrer">Standard Webhooks</a>), and retries for about a day when it does not answer with a 2xx.</p>
<form method="post" action="/settings/webhooks" class="stack" novalidate>${csrfField(session)}
${textField({ id: 'url', label: 'URL', type: 'url', hint: 'An https:// address on the public internet.', value: v.url, maxlength: MAX_URL_LENGTH, errors: kept?.errors })}
${textField({ id: 'description', label: 'Description', hint: 'Optional: what receives the events (e.g. our CRM).', value: v.description, maxlength: MAX_DESCRIPTION, errors: kept?.errors })}
${checkboxes({
	id: 'events',
	name: 'events',
	legend: 'Event types',
	options: SUBSCRIBABLE.map((type) => [type, `${type}: ${EVENT_DESCRIPTIONS[type] ?? ''}`] as const),
	checked: v.events,
	errors: kept?.errors,
})}
<button type="submit">Add endpoint</button></form></section>`
}

export function endpointsPage(
	deps: AppDeps,
	session: PageSession,
	view: { endpoints: EndpointView[]; done?: string | null; kept?: Kept; status?: number },
): Response {
	return portalPage(
		deps,
		session,
		{ title: 'Webhooks', current: '/settings/webhooks', hasErrors: Boolean(view.kept?.errors.length), status: view.status },
		html`${errorSummary(view.kept?.errors)}${notice(view.done)}
${pageHeader({ title: 'Webhooks', meta: 'Events sent to your other systems as they happen: a job published, a candidate applied or moved stage.' })}
<section class="card" aria-labelledby="list-h"><h2 id="list-h">Endpoints</h2>
${view.endpoints.some((e) => e.vendorId) ? html`<p>Endpoints your vendors added with their API keys are listed too: they receive events about that vendor’s own jobs and submissions. You can switch one off or delete it; the vendor manages its own through the Job Publish API.</p>` : ''}
${dataTable<EndpointView>({
	caption: 'Webhook endpoints',
	hideCaption: true,
	rows: view.endpoints,
	empty: 'No endpoints yet: add one below.',
	columns: [
		{
			label: 'URL',
			cell: (e) =>
				html`<a href="/settings/webhooks/${e.id}" class="break">${breakable(e.url)}</a>${e.description ? html`<br><span class="meta">${e.vendorId ? 'Written by the vendor: ' : ''}${e.description}</span>` : ''}`,
		},
		{ label: 'Added by', cell: addedBy },
		{ label: 'Events', cell: (e) => plural(e.events.length, 'event type') },
		{ label: 'Status', cell: (e) => html`${statusTag(e)}${!e.enabled && offWords(e) ? html`<br><span class="meta">${offWords(e)}</span>` : ''}` },
		{ label: 'Added', cell: (e) => when(e.createdAt, { time: false }) },
	],
})}</section>
${addForm(session, view.kept)}`,
	)
}

const STATUS_LABELS: Record<DeliveryView['status'], string> = { pending: 'Waiting', sending: 'Sending', delivered: 'Delivered', failed: 'Failed' }
const deliveryTag = (d: DeliveryView) => tag(STATUS_LABELS[d.status], d.status === 'delivered' ? 'good' : d.status === 'failed' ? 'bad' : 'neutral')

function deliveryLog(session: PageSession, endpoint: EndpointView, rows: DeliveryView[]): SafeHtml {
	return html`<section class="card" id="deliveries" aria-labelledby="deliveries-h"><h2 id="deliveries-h">Delivery log</h2>
<p class="meta">The newest 50. The id is the <code>webhook-id</code> header the receiver sees; a retry or a replay keeps it.</p>
${dataTable<DeliveryView>({
	caption: 'Deliveries',
	hideCaption: true,
	rows,
	empty: 'Nothing sent yet. Send test event to try the endpoint.',
	columns: [
		{ label: 'Event type', cell: (d) => html`<code>${breakable(d.type)}</code><br><span class="meta"><code>${d.id}</code></span>` },
		{ label: 'Time', cell: (d) => when(d.createdAt) },
		{ label: 'Attempts', numeric: true, cell: (d) => String(d.attempts) },
		{
			label: 'Last HTTP status',
			cell: (d) =>
				html`${deliveryTag(d)} ${d.lastStatus ?? (d.attempts ? 'no answer' : '')}${d.lastError && d.status !== 'delivered' ? html`<br><span class="meta">${d.lastError}</span>` : ''}`,
		},
		{ label: 'Next attempt', cell: (d) => (d.nextAttemptAt && d.status === 'pending' ? when(d.nextAttemptAt) : '') },
		{
			label: 'Action',
			cell: (d) =>
				d.status === 'sending'
					? ''
					: actionButton({ session, action: `/settings/webhooks/${endpoint.id}/deliveries/${d.id}/replay`, label: 'Replay', style: 'secondary' }),
		},
	],
})}</section>`
}

/** A refusal that belongs to no form field: the same box as a form's errors, read out and focused. */
const problemSummary = (message: string | undefined) =>
	message ? html`<div class="error-summary" role="alert" tabindex="-1" data-autofocus><h2>There is a problem</h2><p>${message}</p></div>` : ''

export function endpointPage(
	deps: AppDeps,
	session: PageSession,
	view: {
		endpoint: EndpointView
		deliveries: DeliveryView[]
		secret?: { value: string; rotated: boolean }
		done?: string | null
		/** Why an action was refused (a rotation past the cap), with the page's status. */
		problem?: { message: string; status: number }
	},
): Response {
	const e = view.endpoint
	const signing = e.previousSecretsUntil.filter((until) => until > deps.now())
	// A vendor's secret is the vendor's: no Rotate or End here (service.ts refuses them too).
	const ownSecret = !e.vendorId
	// Off by the vendor's pause or by Benchline: the vendor may switch it on, so Disable is offered beside Enable.
	const takeOver = firmMayTakeOver(e)
	const base = `/settings/webhooks/${e.id}`
	const secret = view.secret
		? html`<div class="notice" role="status"><p><strong>${view.secret.rotated ? 'New signing secret.' : 'Endpoint added.'}</strong> Copy the signing secret now and give it to the receiver: it is shown only once.${view.secret.rotated ? ' The previous secret keeps signing beside it for 24 hours.' : ''}</p>
<p class="secret"><code id="new-secret">${view.secret.value}</code> ${copyButton('new-secret', 'Copy the signing secret')}</p></div>`
		: ''
	return portalPage(
		deps,
		session,
		{ title: `Webhook ${e.url}`, current: '/settings/webhooks', hasErrors: Boolean(view.problem), status: view.problem?.status },
		html`${problemSummary(view.problem?.message)}${notice(view.done)}${secret}
${pageHeader({ crumbs: [['/settings/webhooks', 'Webhooks']], title: html`<span class="break">${breakable(e.url)}</span>`, meta: html`${statusTag(e)} Added ${when(e.createdAt)}` })}
<section class="card" aria-labelledby="about-h"><h2 id="about-h">Endpoint</h2>
${facts(
	[
		['Added by', addedBy(e)],
		[descriptionLabel(e), e.description || null],
		['Event types', html`${e.events.map((t, i) => html`${i ? ', ' : ''}<code>${breakable(t)}</code>`)}`],
		['Status', e.enabled ? 'On' : html`Off${offWords(e) ? html`: ${offWords(e)}` : ''}`],
		['Failing since', e.failingSince ? when(e.failingSince) : null],
		[
			signing.length > 1 ? 'Previous secrets sign until' : 'Previous secret signs until',
			// One a line: each time has commas of its own.
			signing.length ? html`${signing.map((until, i) => html`${i ? html`<br>` : ''}${when(until)}`)}` : null,
		],
	],
	{ skipEmpty: true },
)}
${takeOver ? html`<p>${e.disabledCause === 'paused_by_vendor' ? 'The vendor paused this endpoint' : 'Benchline switched this endpoint off'}, not your workspace: the vendor may switch it on again through the Job Publish API. <strong>Disable</strong> makes the switch-off your workspace’s: the vendor can then no longer switch it on, and it stays off until you enable it.</p>` : ''}
${ownSecret ? '' : html`<p>This endpoint is the vendor’s: it receives events about the vendor’s own jobs and submissions, signed with a secret only the vendor was given, so it has no secret to rotate here. Disable stops every delivery to it until you switch it on again: the vendor can neither add the same address again nor delete it meanwhile. Delete removes it and its delivery log (the vendor may then add it again; disable it to keep it out).</p>`}
<div class="actions">
${actionButton({ session, action: `${base}/ping`, label: 'Send test event', style: 'secondary' })}
${ownSecret ? actionButton({ session, action: `${base}/rotate`, label: 'Rotate secret', style: 'secondary', confirm: 'Make a new signing secret? The current one keeps signing beside it for 24 hours.' }) : ''}
${ownSecret && signing.length ? actionButton({ session, action: `${base}/end-previous`, label: 'End previous secrets now', style: 'danger', confirm: 'Stop signing with the previous secrets now? Only the current secret will sign: a receiver that does not have it yet will refuse every delivery.' }) : ''}
${e.enabled ? '' : actionButton({ session, action: `${base}/enable`, label: 'Enable' })}
${e.enabled || takeOver ? actionButton({ session, action: `${base}/disable`, label: 'Disable', style: 'secondary' }) : ''}
${actionButton({ session, action: `${base}/delete`, label: 'Delete', style: 'danger', confirm: `Delete the endpoint ${e.url} and its delivery log?` })}
</div>
<p class="meta">Send test event sends <code>${TEST_EVENT}</code> to this endpoint only.</p></section>
${deliveryLog(session, e, view.deliveries)}`,
	)
}
