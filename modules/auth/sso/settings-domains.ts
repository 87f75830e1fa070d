/**
 * The domains part of `/settings/sso`: each e-mail domain listed, whether it is verified, the TXT
 * record that verifies it (copyable) and **Verify domain**. Unverified domains get a notice saying
 * single sign-on and SCIM do not cover them yet (domains listed before verification existed too).
 * A domain is shown in its Unicode form with its ASCII form beside it when they differ
 * (`bücher.example (xn--bcher-kva.example)`): the record's name is the ASCII form, as DNS providers take it.
 */
import type { PageSession } from '../../../core/http/auth.ts'
import { breakable, html, type SafeHtml } from '../../../core/html.ts'
import { copyButton, csrfField, dataTable, tag, when } from '../../../core/ui.ts'
import { readableDomain } from '../../../core/email.ts'
import type { DomainClaim } from './domain-verification.ts'

export interface DomainsView {
	claims: DomainClaim[]
	requireSso: boolean
	/** The refusal of the last **Verify domain**, shown under the table. */
	verifyError?: { domain: string; message: string }
}

const STATUS = {
	verified: () => tag('Verified', 'good'),
	unverified: () => tag('Not verified', 'warn'),
	elsewhere: () => tag('Another workspace verified it', 'bad'),
} as const

export function domainsPart(session: PageSession, view: DomainsView): SafeHtml {
	const waiting = view.claims.filter((c) => c.status !== 'verified')
	return html`<h3 id="domain-verification">Domain verification</h3>
${waiting.length ? waitingNotice(waiting, view) : ''}
${dataTable<DomainClaim>({
	caption: 'E-mail domains and their verification',
	hideCaption: true,
	rows: view.claims,
	empty: 'No domain listed yet.',
	columns: [
		{ label: 'Domain', cell: (c) => breakable(readableDomain(c.domain)) },
		{
			label: 'Status',
			cell: (c) =>
				html`${STATUS[c.status]()}${c.verifiedAt ? html` <span class="meta">${c.verifiedBy === 'operator' ? 'by the operator' : 'by DNS'}, ${when(c.verifiedAt, { time: false })}</span>` : ''}`,
		},
	],
})}
${view.verifyError ? html`<p class="error" role="alert" id="verify-error">${view.verifyError.domain}: ${view.verifyError.message}</p>` : ''}
${view.claims.map((c, i) => (c.status === 'unverified' ? record(session, c, i) : ''))}`
}

function waitingNotice(waiting: DomainClaim[], view: DomainsView): SafeHtml {
	const names = waiting.map((c) => readableDomain(c.domain)).join(', ')
	return html`<div class="notice notice-warn" role="status"><p><strong>Not verified: ${names}.</strong> Single sign-on and SCIM provisioning do not apply to these addresses until the domain is verified: for each, add its TXT record at your DNS provider, then press <strong>Verify domain</strong>. Domains listed before Benchline verified them wait here too; your Benchline operator can also verify one they know is yours.</p>${
		view.requireSso && waiting.length === view.claims.length
			? html`<p>Require single sign-on is on: until a domain is verified, only owners can sign in to this workspace.</p>`
			: ''
	}</div>`
}

/** The record to add for one domain, as DNS providers ask for it (name and value copyable), and its **Verify domain**. */
function record(session: PageSession, c: DomainClaim, index: number): SafeHtml {
	const name = `txt-name-${index}`
	const value = `txt-value-${index}`
	const shown = readableDomain(c.domain)
	return html`<div class="stack" id="record-${index}"><h4>DNS record for ${breakable(shown)}</h4>
<dl class="facts"><div><dt>Name</dt><dd class="secret"><code id="${name}">${breakable(c.recordName)}</code> ${copyButton(name, `Copy the record name for ${shown}`)}</dd></div>
<div><dt>Type</dt><dd>TXT</dd></div>
<div><dt>Value</dt><dd class="secret"><code id="${value}">${breakable(c.recordValue)}</code> ${copyButton(value, `Copy the record value for ${shown}`)}</dd></div></dl>
<form method="post" action="/settings/sso/domains/verify" class="inline">${csrfField(session)}<input type="hidden" name="domain" value="${c.domain}"><button type="submit" aria-label="Verify domain ${shown}">Verify domain</button></form></div>`
}
