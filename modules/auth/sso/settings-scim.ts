/** The SCIM part of `/settings/sso`: the base URL to give the identity provider, and its tokens (shown once, revocable). */
import { html, type SafeHtml } from '../../../core/html.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { actionButton, copyButton, csrfField, dataTable, when } from '../../../core/ui.ts'
import type { RevokedWithCreatorView, ScimTokenView } from './scim-tokens.ts'

export interface ScimSectionView {
	baseUrl: string
	tokens: ScimTokenView[]
	/** Tokens revoked in the last 30 days because the person who made them left or is no longer an owner. */
	revokedWithCreator?: RevokedWithCreatorView[]
	newToken?: { name: string; token: string }
}

const WHY: Record<RevokedWithCreatorView['reason'], string> = {
	creator_left: 'left the workspace',
	creator_not_owner: 'is no longer an owner',
}

/** Tokens that stopped with their creator: the owners left must give their identity provider a new one. */
function revokedWithCreator(list: RevokedWithCreatorView[] | undefined): SafeHtml | string {
	if (!list?.length) return ''
	return html`<div class="notice notice-warn" role="status" id="scim-revoked-with-creator"><p><strong>Provisioning stopped for ${list.length === 1 ? 'a SCIM token' : 'SCIM tokens'} whose creator is gone.</strong> A SCIM token acts as an owner, so it ends when the person who created it leaves the workspace or stops being an owner. Create a new token below and enter it in your identity provider to go on provisioning people.</p>
<ul>${list.map((t) => html`<li>“${t.name}” <span class="meta">…${t.lastFour}</span>: revoked ${when(t.revokedAt)} because ${t.creatorName} (${t.creatorEmail}), who created it, ${WHY[t.reason]}.</li>`)}</ul></div>`
}

export function scimSection(session: PageSession, view: ScimSectionView): SafeHtml {
	return html`<section class="card" id="scim" aria-labelledby="scim-h"><h2 id="scim-h">SCIM provisioning</h2>
<p>Your identity provider (Okta, Microsoft Entra ID) adds people, changes their role and deactivates them here as it does in your firm: a person deactivated or deleted there is signed out of Benchline at once, and their notes and activity stay under their name. The groups are the roles: Owner, Admin, Recruiter, Hiring manager, Viewer.</p>
<dl class="facts"><div><dt>SCIM base URL</dt><dd><code id="scim-base">${view.baseUrl}/scim/v2</code> ${copyButton('scim-base', 'Copy the SCIM base URL')}</dd></div>
<div><dt>Authentication</dt><dd>HTTP header, bearer token: a SCIM token below</dd></div></dl>
<form method="post" action="/settings/sso/scim-tokens" class="stack">
${csrfField(session)}
<div class="field"><label for="scim-token-name">Token name</label><span class="hint" id="scim-token-name-hint">Which identity provider uses it, e.g. Okta</span><input id="scim-token-name" name="name" maxlength="80" aria-describedby="scim-token-name-hint"></div>
<button type="submit">Create SCIM token</button>
</form>
${
	view.newToken
		? html`<div class="notice" role="status"><p><strong>SCIM token “${view.newToken.name}” created.</strong> Copy it now into your identity provider: it is shown only once.</p>
<p class="secret"><code id="new-scim-token">${view.newToken.token}</code> ${copyButton('new-scim-token', 'Copy the SCIM token')}</p></div>`
		: ''
}
${revokedWithCreator(view.revokedWithCreator)}
<h3>SCIM tokens</h3>
${dataTable<ScimTokenView>({
	caption: 'SCIM tokens',
	hideCaption: true,
	rows: view.tokens,
	empty: 'No SCIM token: create one for your identity provider.',
	columns: [
		{ label: 'Name', cell: (t) => html`${t.name} <span class="meta">…${t.lastFour}</span>` },
		{ label: 'Created', cell: (t) => when(t.createdAt) },
		{ label: 'Last used', cell: (t) => (t.lastUsedAt ? when(t.lastUsedAt) : 'not yet') },
		{
			label: 'Actions',
			cell: (t) =>
				actionButton({
					session,
					action: `/settings/sso/scim-tokens/${t.id}/revoke`,
					label: 'Revoke',
					style: 'danger',
					confirm: `Revoke the SCIM token “${t.name}”? Your identity provider can no longer provision people with it.`,
				}),
		},
	],
})}
</section>`
}
