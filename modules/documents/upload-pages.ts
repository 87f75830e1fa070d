/**
 * The candidate's upload page: public (the link is the credential), phone-friendly, usable
 * without JavaScript. One small form per document kind, so each upload stays under the size limit.
 */
import { html, page, type SafeHtml } from '../../core/html.ts'
import { DOCUMENT_LABELS, type DocumentKind } from '../vendors/index.ts'
import { MAX_DOCUMENT_BYTES } from './content.ts'
import { LINK_LIMITS, linkAllowance, sizeText, type LinkProblem, type UploadLink } from './uploads.ts'

const NOINDEX = html`<meta name="robots" content="noindex, nofollow">`
/** "Driver’s license" → "driver’s license", but "I-94 record" stays as it is. */
const inSentence = (label: string) => (/^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label)
const dateOf = (d: Date) => d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/** Pages reached with a secret in the address: never cached, never indexed. */
function noStore(res: Response): Response {
	res.headers.set('Cache-Control', 'no-store')
	return res
}

export interface UploadView {
	token: string
	csrf: string
	received?: DocumentKind
	error?: { kind: string; message: string }
	status?: number
}

export function uploadPage(link: UploadLink, view: UploadView): Response {
	const allowance = linkAllowance(link.received)
	const largest = Math.min(MAX_DOCUMENT_BYTES, allowance.bytesLeft)
	const section = (kind: DocumentKind): SafeHtml => {
		const files = link.received.filter((r) => r.kind === kind)
		const label = DOCUMENT_LABELS[kind]
		const error = view.error?.kind === kind ? view.error.message : null
		const full = allowance.filesLeft(kind) === 0 || largest === 0
		const form = full
			? html`<p>${
					allowance.filesLeft(kind) === 0
						? `This link has taken the ${LINK_LIMITS.filesPerKind} files it takes for the ${inSentence(label)}; the newest one is the one used.`
						: `This link has taken the ${sizeText(LINK_LIMITS.bytes)} of files it takes in all.`
				} To send another, ask ${link.requestedByName} for a new link.</p>${error ? html`<p class="field-error" id="err-${kind}">${error}</p>` : ''}`
			: html`<form method="post" action="/upload/${view.token}" enctype="multipart/form-data" class="stack">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="kind" value="${kind}">
<label for="file-${kind}">${files.length ? 'Send another file' : 'Choose a file'} <span class="meta">(PDF, JPEG or PNG, up to ${sizeText(largest)}${files.length ? '; the newest file is the one used' : ''})</span>
<input id="file-${kind}" name="file" type="file" accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png" required${error ? html` aria-invalid="true" aria-describedby="err-${kind}"` : ''}></label>
${error ? html`<p class="field-error" id="err-${kind}">${error}</p>` : ''}
<button type="submit">Upload ${inSentence(label)}</button>
</form>`
		return html`<section class="card" aria-labelledby="h-${kind}">
<h2 id="h-${kind}">${label}</h2>
${files.length ? html`<p class="meta">Received: ${files.map((f, i) => html`${i ? ', ' : ''}${f.fileName} (${dateOf(f.uploadedAt)})`)}</p>` : html`<p class="meta">Nothing received yet.</p>`}
${form}</section>`
	}
	const res = page(
		{ title: 'Upload your documents', status: view.status, head: NOINDEX },
		html`<section class="card"><h1>Upload your documents</h1>
<p>${link.requestedByName} at ${link.workspaceName} asks ${link.candidateName} for the documents below. Your files go straight to ${link.workspaceName}; this page never shows them back.</p>
<p>This link works until <strong>${dateOf(link.expiresAt)}</strong> and can be used more than once: up to ${LINK_LIMITS.filesPerKind} files for each document and ${sizeText(LINK_LIMITS.bytes)} in all${allowance.bytesUsed ? ` (${sizeText(allowance.bytesLeft)} left)` : ''}.</p>
${link.message ? html`<h2>Message from ${link.requestedByName}</h2>${link.message.split('\n').map((line) => html`<p>${line}</p>`)}` : ''}
<div role="status" aria-live="polite">${view.received ? html`<p class="notice">Thank you: your ${inSentence(DOCUMENT_LABELS[view.received])} was received.</p>` : ''}</div>
${view.error ? html`<p class="error" role="alert">${view.error.message}</p>` : ''}
</section>
${link.items.map(section)}`,
	)
	return noStore(res)
}

const PROBLEM_PAGES: Record<LinkProblem, { title: string; status: number; body: SafeHtml }> = {
	invalid: {
		title: 'This link is not valid',
		status: 404,
		body: html`<h1>This upload link is not valid</h1>
<p>Check that you opened the whole link from the e-mail or message; a link that was cut off or changed does not work.</p>
<p>If it still does not work, ask your recruiter to send you a new link.</p>`,
	},
	expired: {
		title: 'This link has expired',
		status: 410,
		body: html`<h1>This upload link has expired</h1>
<p>Upload links work for 7 days. Nothing was lost: ask your recruiter to send you a new link.</p>`,
	},
	replaced: {
		title: 'This link was replaced',
		status: 410,
		body: html`<h1>This upload link was replaced by a newer one</h1>
<p>Your recruiter sent you a newer link for these documents. Use the link in the most recent e-mail or message; files you already sent were kept.</p>`,
	},
	revoked: {
		title: 'This link was withdrawn',
		status: 410,
		body: html`<h1>This upload link was withdrawn</h1>
<p>This link no longer works. Files you already sent were kept; ask your recruiter to send you a new link.</p>`,
	},
}

export function linkProblemPage(reason: LinkProblem): Response {
	const problem = PROBLEM_PAGES[reason]
	return noStore(page({ title: problem.title, status: problem.status, head: NOINDEX }, html`<section class="card">${problem.body}</section>`))
}
