/**
 * Template pages: the list with the firm's footer (`/settings/templates`), a new template, and one
 * template with its preview on a real record (`/settings/templates/<id>?preview=<applicationId>`).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html, portalPage, type SafeHtml } from '../../core/html.ts'
import {
	actionButton,
	checkboxes,
	csrfField,
	dataTable,
	errorSummary,
	notice,
	pageHeader,
	selectField,
	tag,
	textArea,
	textField,
	when,
	type FieldError,
} from '../../core/ui.ts'
import type { RecentApplication } from '../candidates/index.ts'
import { MERGE_FIELDS, type MergeField } from './fields.ts'
import { MAX_BODY, MAX_FOOTER, MAX_TEXT_FOOTER, type Footers, type Template } from './service.ts'

export const CHANNEL_LABELS: Record<string, string> = { email: 'E-mail', text: 'Text message' }
export const KIND_LABELS: Record<string, string> = { transactional: 'Transactional', marketing: 'Marketing (job alert)' }

/** What a refused form had: every value typed, and the problems by field id. */
export interface Kept {
	values: Record<string, string>
	errors: FieldError[]
}

const templateLink = (t: Template) => html`<a href="/settings/templates/${t.id}">${t.name}</a>`

function templatesTable(caption: string, rows: Template[], empty: string): SafeHtml {
	return dataTable<Template>({
		caption,
		hideCaption: true,
		rows,
		empty,
		columns: [
			{ label: 'Name', cell: templateLink },
			{ label: 'Channel', cell: (t) => CHANNEL_LABELS[t.channel] },
			{ label: 'Kind', cell: (t) => (t.kind === 'marketing' ? tag('Marketing', 'warn') : 'Transactional') },
			{ label: 'Changed', cell: (t) => when(t.updatedAt, { time: false }) },
		],
	})
}

/** The list of merge fields, for the template form and the compose page. */
export const mergeFieldHelp = () =>
	html`<details class="help"><summary>Merge fields</summary><p class="meta">Written in double braces, filled in from the record the message is about.</p>
<dl class="facts">${Object.entries(MERGE_FIELDS).map(([name, about]) => html`<div><dt><code>${breakable(`{{${name}}}`)}</code></dt><dd>${about}</dd></div>`)}</dl></details>`

function footerForm(session: PageSession, footers: Footers, mayShare: boolean, kept?: Kept): SafeHtml {
	const values = kept?.values ?? { email: footers.email, text: footers.text }
	const intro = html`<p>Every e-mail and text message to a candidate ends with the firm’s footer, whoever sends it (replies, document requests, interview invitations, bulk messages). Job alerts also carry an unsubscribe link.${footers.set ? '' : ' Nothing is set yet: the footer below is the default.'}</p>`
	if (!mayShare)
		return html`<section class="card" id="footer" aria-labelledby="footer-h"><h2 id="footer-h">Firm’s footer</h2>${intro}
<h3>E-mail</h3><pre class="text">${breakable(footers.email)}</pre><h3>Text message</h3><pre class="text">${breakable(footers.text)}</pre><p class="meta">Owners and admins change it.</p></section>`
	return html`<section class="card" id="footer" aria-labelledby="footer-h"><h2 id="footer-h">Firm’s footer</h2>${intro}
<form method="post" action="/settings/templates/footer" class="stack" novalidate>${csrfField(session)}
${textArea({ id: 'footer-email', name: 'email', label: 'E-mail footer', hint: `Under a “-- ” line; up to ${MAX_FOOTER.toLocaleString('en-US')} characters (the firm’s name, address, website).`, value: values.email, rows: 3, maxlength: MAX_FOOTER, errors: kept?.errors })}
${textField({ id: 'footer-text', name: 'text', label: 'Text message footer', hint: `One line, up to ${MAX_TEXT_FOOTER} characters.`, value: values.text, maxlength: MAX_TEXT_FOOTER, errors: kept?.errors })}
<button type="submit">Save footer</button></form></section>`
}

export function templatesPage(
	deps: AppDeps,
	session: PageSession,
	view: { templates: Template[]; footers: Footers; mayShare: boolean; done?: string | null; footerKept?: Kept; status?: number },
): Response {
	const shared = view.templates.filter((t) => t.shared)
	const own = view.templates.filter((t) => !t.shared)
	return portalPage(
		deps,
		session,
		{ title: 'Message templates', current: '/settings/templates', hasErrors: Boolean(view.footerKept?.errors.length), status: view.status },
		html`${errorSummary(view.footerKept?.errors)}${notice(view.done)}
${pageHeader({ title: 'Message templates', meta: 'Ready-made e-mails and text messages with merge fields, offered by New message.', actions: html`<a class="button" href="/settings/templates/new">New template</a>` })}
<section class="card" aria-labelledby="shared-h"><h2 id="shared-h">Shared templates</h2>${templatesTable('Shared templates', shared, view.mayShare ? 'No shared templates yet.' : 'No shared templates yet: owners and admins make them.')}</section>
<section class="card" aria-labelledby="own-h"><h2 id="own-h">Your templates</h2>${templatesTable('Your templates', own, 'You have no templates of your own yet.')}</section>
${footerForm(session, view.footers, view.mayShare, view.footerKept)}`,
	)
}

function templateFields(o: { values: Record<string, string>; errors?: FieldError[]; mayShare: boolean; isNew: boolean }): SafeHtml {
	const v = o.values
	return html`${textField({ id: 'name', label: 'Name', value: v.name, maxlength: 100, errors: o.errors })}
${selectField({
	id: 'channel',
	label: 'Channel',
	value: v.channel ?? 'email',
	options: [
		['email', 'E-mail'],
		['text', 'Text message'],
	],
	errors: o.errors,
})}
${selectField({
	id: 'kind',
	label: 'Kind',
	hint: 'Marketing (a job alert, e-mail only): sent with an unsubscribe link, and never to someone who unsubscribed. Transactional: everything about a person’s own application.',
	value: v.kind ?? 'transactional',
	options: [
		['transactional', 'Transactional'],
		['marketing', 'Marketing (job alert)'],
	],
	errors: o.errors,
})}
${textField({ id: 'subject', label: 'Subject (e-mail)', value: v.subject, maxlength: 200, errors: o.errors })}
${textArea({ id: 'body', label: 'Message', hint: 'Merge fields such as {{candidate.firstName}} are filled in when the message is written; the firm’s footer is added when it is sent.', value: v.body, rows: 10, maxlength: MAX_BODY, errors: o.errors })}
${o.isNew && o.mayShare ? checkboxes({ id: 'shared', name: 'shared', legend: 'Who can use it', options: [['yes', 'Everyone in the workspace (a shared template)']], checked: v.shared === 'yes' ? ['yes'] : [] }) : ''}
${mergeFieldHelp()}`
}

export function newTemplatePage(deps: AppDeps, session: PageSession, view: { mayShare: boolean; kept?: Kept; status?: number }): Response {
	const values = view.kept?.values ?? { channel: 'email', kind: 'transactional' }
	return portalPage(
		deps,
		session,
		{ title: 'New template', current: '/settings/templates', hasErrors: Boolean(view.kept?.errors.length), status: view.status },
		html`${errorSummary(view.kept?.errors)}
${pageHeader({ crumbs: [['/settings/templates', 'Message templates']], title: 'New template' })}
<section class="card"><form method="post" action="/settings/templates" class="stack" novalidate>${csrfField(session)}
${templateFields({ values, errors: view.kept?.errors, mayShare: view.mayShare, isNew: true })}
<button type="submit">Save template</button></form></section>`,
	)
}

export interface Preview {
	choices: RecentApplication[]
	chosen: RecentApplication | null
	subject: string | null
	body: string
	missing: MergeField[]
}

function previewSection(t: Template, p: Preview): SafeHtml {
	const chooser = html`<form method="get" action="/settings/templates/${t.id}" class="inline-form">
${selectField({ id: 'preview', label: 'Preview with the application of', value: p.chosen?.id ?? '', options: p.choices.map((c) => [c.id, `${c.candidateName} — ${c.jobTitle}`] as const) })}
<button type="submit" class="secondary">Show preview</button></form>`
	return html`<section class="card" id="preview-section" aria-labelledby="preview-h"><h2 id="preview-h">Preview</h2>
${p.choices.length ? chooser : html`<p class="empty">There is no application you can see to preview with yet: fields about the candidate and the job stay as written.</p>`}
${p.missing.length ? html`<div class="notice notice-warn" role="status"><p>No value for ${p.missing.map((f, i) => html`${i ? ', ' : ''}<code>${breakable(`{{${f}}}`)}</code>`)} with this record: a message would not be sent until it has one.</p></div>` : ''}
${p.subject !== null ? html`<p><strong>${p.subject}</strong></p>` : ''}<pre class="text">${breakable(p.body)}</pre>
<p class="meta">The firm’s footer is added under it when it is sent${t.kind === 'marketing' ? ', with the unsubscribe link' : ''}.</p></section>`
}

export function templatePage(
	deps: AppDeps,
	session: PageSession,
	view: { template: Template; preview: Preview; done?: string | null; kept?: Kept; status?: number },
): Response {
	const t = view.template
	const values = view.kept?.values ?? { name: t.name, channel: t.channel, kind: t.kind, subject: t.subject ?? '', body: t.body }
	const editor = t.editable
		? html`<section class="card" aria-labelledby="edit-h"><h2 id="edit-h">Edit</h2><form method="post" action="/settings/templates/${t.id}" class="stack" novalidate>${csrfField(session)}
${templateFields({ values, errors: view.kept?.errors, mayShare: false, isNew: false })}
<button type="submit">Save changes</button></form></section>`
		: html`<section class="card"><h2>Template</h2><p class="meta">Shared templates are changed by owners and admins.</p>${t.subject ? html`<p><strong>${t.subject}</strong></p>` : ''}<pre class="text">${breakable(t.body)}</pre></section>`
	return portalPage(
		deps,
		session,
		{ title: t.name, current: '/settings/templates', hasErrors: Boolean(view.kept?.errors.length), status: view.status },
		html`${errorSummary(view.kept?.errors)}${notice(view.done)}
${pageHeader({
	crumbs: [['/settings/templates', 'Message templates']],
	title: t.name,
	meta: html`${CHANNEL_LABELS[t.channel]} · ${KIND_LABELS[t.kind]} · ${t.shared ? 'shared' : 'yours'} · changed ${when(t.updatedAt)}`,
	actions: t.editable
		? actionButton({ session, action: `/settings/templates/${t.id}/delete`, label: 'Delete', style: 'danger', confirm: `Delete the template “${t.name}”?` })
		: null,
})}
<div class="grid-2 sections">${editor}${previewSection(t, view.preview)}</div>`,
	)
}
