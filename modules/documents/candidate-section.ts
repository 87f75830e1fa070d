/**
 * The documents section of the candidate page (people who may see documents): what is on file
 * (kind, file, date; each opens through its protected address), the requests sent and the state
 * of their links, and the Request documents form (`request_candidate_documents`' service).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { errorsOf, keptList, keptText } from '../../core/http/form.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSection, RefusedForm, SectionContext } from '../../core/module.ts'
import { checkboxes, csrfField, dataTable, selectField, tag, textArea, when } from '../../core/ui.ts'
import { candidateApplicationChoices, type ApplicationChoice } from '../candidates/index.ts'
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { documentAddress } from './files.ts'
import { sentRequests, type SentRequest } from './request-history.ts'
import { MAX_REQUEST_MESSAGE } from './requests.ts'
import { documentsOf, listCandidateDocuments, type DocumentView } from './service.ts'

export const REQUEST_FORM = 'documents'

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`)
const kinds = (items: readonly DocumentKind[]) => items.map((k) => DOCUMENT_LABELS[k]).join(', ')

const LINK_TAGS = {
	active: (r: SentRequest) => tag(html`Link works until ${when(r.expiresAt, { time: false })}`, 'info'),
	expired: () => tag('Link expired'),
	replaced: () => tag('Link replaced by a newer request'),
	revoked: () => tag('Link withdrawn', 'warn'),
}

function requestForm(
	session: PageSession,
	candidateId: string,
	notOnFile: readonly DocumentKind[],
	choices: ApplicationChoice[],
	refused: RefusedForm | undefined,
	notice: SafeHtml | undefined,
): SafeHtml {
	const errors = errorsOf(refused, REQUEST_FORM)
	const kept = refused?.form === REQUEST_FORM
	const newest = choices[0]
	return html`<form method="post" action="/candidates/${candidateId}/document-requests" class="stack" id="request-documents" novalidate><h3>Request documents</h3>
<p class="hint">The candidate gets an e-mail and a text message with a secure upload link, valid 7 days.</p>
${csrfField(session)}
${checkboxes({ id: 'docs-items', name: 'items', legend: 'Documents to ask for', options: DOCUMENT_KINDS.map((k) => [k, DOCUMENT_LABELS[k]] as const), checked: keptList(refused, REQUEST_FORM, 'items') ?? notOnFile, errors })}
${textArea({ id: 'docs-message', name: 'message', label: 'Message to the candidate (optional)', hint: 'Plain text, added to the e-mail', maxlength: MAX_REQUEST_MESSAGE, rows: 3, value: keptText(refused, REQUEST_FORM, 'message'), errors })}
${
	newest
		? html`${selectField({ id: 'docs-application', name: 'applicationId', label: 'About the job', value: keptText(refused, REQUEST_FORM, 'applicationId') ?? '', options: [['', `${newest.jobTitle || 'A job'} (newest)`], ...choices.slice(1).map((c) => [c.id, c.jobTitle || 'A job'] as const)], errors })}
${checkboxes({ id: 'docs-job-link', name: 'includeJobLink', legend: 'Job link', options: [['yes', 'Include the job’s careers address (when the job is open)']], checked: kept ? (keptList(refused, REQUEST_FORM, 'includeJobLink') ?? []) : ['yes'], errors })}`
		: ''
}
<button type="submit">Request documents</button>${notice}</form>`
}

export const documentsSection: PageSection = {
	page: 'candidate',
	order: 10,
	permission: 'documents:read',
	notices: {
		'documents-requested': 'The request is on its way by e-mail and text message.',
		'documents-requested-email':
			'The request is on its way by e-mail. No text message was sent: there is no messaging provider, or no phone number a message can go to.',
		'documents-repeated': 'You sent this same request moments ago: nothing was sent again.',
	},
	async render(deps: AppDeps, session: PageSession, candidateId: string, { refused, notice }: SectionContext = {}) {
		const actor = session.actor
		const [onFile, stored, requests, choices] = await Promise.all([
			listCandidateDocuments(deps, actor, candidateId),
			documentsOf(deps, actor.workspaceId, candidateId),
			sentRequests(deps, actor, candidateId),
			candidateApplicationChoices(deps, actor, candidateId),
		])
		const keys = new Map(stored.map((d) => [d.id, d.storageKey]))
		const file = (d: DocumentView) => {
			const key = keys.get(d.id)
			return key ? html`<a href="${documentAddress(deps, candidateId, { id: d.id, storageKey: key })}">${d.fileName}</a>` : d.fileName
		}
		return html`<section class="card" id="documents" aria-labelledby="documents-h"><h2 id="documents-h">Documents</h2>
${onFile.documents.length ? html`<p class="meta">Not on file: ${onFile.notOnFile.length ? kinds(onFile.notOnFile) : 'nothing, every kind is on file'}.</p>` : ''}
${dataTable<DocumentView>({
	caption: 'Documents on file',
	hideCaption: true,
	rows: onFile.documents,
	empty: 'No documents on file. Ask the candidate for them with Request documents.',
	columns: [
		{ label: 'Kind', cell: (d) => DOCUMENT_LABELS[d.kind] },
		{ label: 'File', cell: (d) => html`${file(d)} <span class="meta nowrap">(${size(d.sizeBytes)})</span>` },
		{ label: 'Received', cell: (d) => when(d.uploadedAt, { time: false }) },
		{ label: 'Status', cell: (d) => (d.current ? tag('In use', 'good') : tag('Older copy')) },
	],
})}
${
	requests.length
		? html`<h3>Requests sent</h3>${dataTable<SentRequest>({
				caption: 'Document requests sent',
				hideCaption: true,
				rows: requests,
				empty: '',
				columns: [
					{ label: 'Asked for', cell: (r) => kinds(r.items) },
					{ label: 'Sent', cell: (r) => html`${when(r.createdAt, { time: false })} <span class="meta">by ${r.requestedByName}</span>` },
					{ label: 'Uploads', numeric: true, cell: (r) => r.uploadCount },
					{ label: 'Link', cell: (r) => LINK_TAGS[r.state](r) },
				],
			})}`
		: ''
}
${deps.permissions.can(actor, 'documents:request') ? requestForm(session, candidateId, onFile.notOnFile, choices, refused, notice) : ''}</section>`
	},
}
