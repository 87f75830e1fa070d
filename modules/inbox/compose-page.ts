/**
 * The New message page (`/inbox/new`): whom to write to (a candidate or vendor found by name, or the
 * record the page was opened from), what it is about and the template to start from (a GET form, so
 * the choice works without JavaScript), then the message itself (Post/Redirect/Get).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import { csrfField, dataTable, errorSummary, pageHeader, selectField, textArea, textField, type FieldError } from '../../core/ui.ts'
import type { ApplicationChoice } from '../candidates/index.ts'
import { CHANNEL_LABELS, mergeFieldHelp, type MergeField, type Template } from '../templates/index.ts'
import { channelsOf, MAX_EMAIL_BODY, MAX_TEXT_BODY, type ComposeChannel, type Recipient } from './compose.ts'

export interface Found {
	kind: 'candidate' | 'vendor'
	id: string
	name: string
	detail: string
}

export interface ComposeView {
	recipient: Recipient | null
	/** The person's search for whom to write to, and what it found. */
	q?: string
	found?: Found[]
	applications: ApplicationChoice[]
	templates: Template[]
	template: Template | null
	channel: ComposeChannel | null
	subject: string
	body: string
	missing: MergeField[]
	errors?: FieldError[]
	status?: number
}

const targetParams = (r: Recipient) =>
	r.kind === 'vendor' ? html`<input type="hidden" name="vendor" value="${r.id}">` : html`<input type="hidden" name="candidate" value="${r.id}">`

function finder(view: ComposeView): SafeHtml {
	return html`<section class="card" aria-labelledby="to-h"><h2 id="to-h">To whom?</h2>
<form method="get" action="/inbox/new" class="inline-form">${textField({ id: 'q', label: 'Name of the candidate or vendor', value: view.q, maxlength: 120 })}<button type="submit" class="secondary">Find</button></form>
${
	view.found
		? dataTable<Found>({
				caption: 'Candidates and vendors found',
				hideCaption: true,
				rows: view.found,
				empty: 'Nobody you can write to has that name.',
				columns: [
					{ label: 'Name', cell: (f) => html`<a href="/inbox/new?${f.kind}=${encodeURIComponent(f.id)}">${f.name}</a>` },
					{
						label: 'Who',
						cell: (f) => html`${f.kind === 'candidate' ? 'Candidate' : 'Vendor'}${f.detail ? html`<br><span class="meta">${f.detail}</span>` : ''}`,
					},
				],
			})
		: html`<p class="meta">Or open a candidate, an application or a vendor and press New message there.</p>`
}</section>`
}

function starter(view: ComposeView, r: Recipient): SafeHtml {
	const channels = channelsOf(r)
	const usable = view.templates.filter((t) => channels.includes(t.channel) && (t.kind !== 'marketing' || r.kind === 'candidate'))
	return html`<form method="get" action="/inbox/new" class="starter">${targetParams(r)}
${r.kind === 'candidate' && view.applications.length ? selectField({ id: 'application', label: 'About', hint: 'The job’s merge fields come from this application.', value: r.applicationId ?? '', options: [['', 'The candidate in general'], ...view.applications.map((a) => [a.id, `Application for ${a.jobTitle}`] as const)] }) : ''}
${selectField({ id: 'template', label: 'Start from a template', value: view.template?.id ?? '', options: [['', 'No template'], ...usable.map((t) => [t.id, `${t.name} (${CHANNEL_LABELS[t.channel]}${t.kind === 'marketing' ? ', job alert' : ''})`] as const)] })}
${channels.length > 1 ? selectField({ id: 'channel', label: 'Send by', hint: 'A template decides this itself.', value: view.channel ?? channels[0], options: channels.map((c) => [c, CHANNEL_LABELS[c]!] as const) }) : ''}
<button type="submit" class="secondary">Use these</button></form>`
}

function writer(session: PageSession, view: ComposeView, r: Recipient): SafeHtml {
	const channel = view.channel
	if (!channel) return html`<p class="error" role="alert">The ${r.kind} has no e-mail address or phone number on file, so no message can be sent.</p>`
	return html`<form method="post" action="/inbox/new" class="stack wide" novalidate>${csrfField(session)}${targetParams(r)}
${r.applicationId ? html`<input type="hidden" name="application" value="${r.applicationId}">` : ''}
${view.template ? html`<input type="hidden" name="template" value="${view.template.id}">` : ''}<input type="hidden" name="channel" value="${channel}">
<p>By ${channel === 'email' ? html`e-mail to <strong>${r.email}</strong>` : html`text message to <strong>${r.phone}</strong>`}${view.template?.kind === 'marketing' ? ' · a job alert: it carries an unsubscribe link' : ''}</p>
${channel === 'email' ? textField({ id: 'subject', label: 'Subject', value: view.subject, maxlength: 200, errors: view.errors }) : ''}
${textArea({ id: 'body', label: 'Message', hint: `Merge fields are filled in when it is sent; the firm’s footer is added under it.${channel === 'text' ? ` At most ${MAX_TEXT_BODY.toLocaleString('en-US')} characters.` : ''}`, value: view.body, rows: 12, maxlength: channel === 'text' ? MAX_TEXT_BODY : MAX_EMAIL_BODY, errors: view.errors })}
<button type="submit">Send</button></form>`
}

export function composePage(deps: AppDeps, session: PageSession, view: ComposeView): Response {
	const r = view.recipient
	const back: readonly (readonly [string, string])[] = r
		? [[r.kind === 'vendor' ? `/vendors/${r.id}` : r.applicationId ? `/applications/${r.applicationId}` : `/candidates/${r.id}`, r.name]]
		: [['/inbox', 'Inbox']]
	return portalPage(
		deps,
		session,
		{ title: r ? `New message to ${r.name}` : 'New message', current: '/inbox', hasErrors: Boolean(view.errors?.length), status: view.status },
		html`${errorSummary(view.errors)}
${pageHeader({ crumbs: back, title: r ? html`New message to ${r.name}` : 'New message', meta: r ? `${r.kind === 'vendor' ? 'Vendor' : 'Candidate'}${r.email ? ` · ${r.email}` : ''}${r.phone ? ` · ${r.phone}` : ''}` : null })}
${
	r
		? html`<section class="card">${starter(view, r)}
${view.missing.length ? html`<div class="notice notice-warn" role="status"><p>No value for ${view.missing.map((f, i) => html`${i ? ', ' : ''}<code>${breakable(`{{${f}}}`)}</code>`)} here: fill it in yourself${view.missing.some((f) => f.startsWith('job.')) ? ', or choose the application the message is about' : ''}. A message is not sent with a merge field that has no value.</p></div>` : ''}
${writer(session, view, r)}
${mergeFieldHelp()}</section>`
		: finder(view)
}`,
	)
}
