/**
 * Send message to several people at once from a template (issues 31 and 32): the controls the inbox
 * contributes to the candidates list (page section `candidates-list`) and to a job's stage list
 * (`job-stage-bulk`), and the route they post to, which reads the form, sends through
 * `bulkSendMessage` (its rules are in `bulk-send-service.ts`: one message per person, the limit,
 * what is refused) and shows the report once (core/bulk.ts).
 */
import { Elysia } from 'elysia'
import { bulkReportCookie, bulkReportPage, localBack } from '../../core/bulk.ts'
import type { AppDeps } from '../../core/deps.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formList, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit, PageSection } from '../../core/module.ts'
import { CHANNEL_LABELS, listTemplates } from '../templates/index.ts'
import { bulkSendMessage } from './bulk-send-service.ts'

const BULK_PATH = '/inbox/bulk-send'
const report = bulkReportCookie('bl_bulk_send', BULK_PATH)

/** The template choice and the button, joined to the list's bulk form (`form`: its id, or none when they sit inside it). */
async function controls(deps: AppDeps, session: PageSession, form: string | null): Promise<SafeHtml | null> {
	const templates = await listTemplates(deps, session.actor)
	if (!templates.length) return null
	const joined = form ? html` form="${form}"` : ''
	return html`<div class="bulk-row"><label for="bulk-template">Template</label><select id="bulk-template" name="templateId"${joined}>${templates.map(
		(t) => html`<option value="${t.id}">${t.name} (${CHANNEL_LABELS[t.channel]})</option>`,
	)}</select><button type="submit"${joined} formaction="${BULK_PATH}">Send message</button></div>`
}

export const bulkSendCandidatesSection: PageSection = {
	page: 'candidates-list',
	order: 20,
	permission: 'inbox:read',
	render: (deps, session) => controls(deps, session, 'bulk-candidates'),
}

export const bulkSendApplicationsSection: PageSection = {
	page: 'job-stage-bulk',
	order: 20,
	permission: 'inbox:read',
	render: (deps, session) => controls(deps, session, null),
}

export function bulkSendRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'inbox.bulk-send' })
		.use(auth)
		.post(
			BULK_PATH,
			async ({ session, body, cookie }) => {
				const { action, lines } = await bulkSendMessage(deps, session.actor, {
					templateId: formText(body, 'templateId'),
					applicationIds: formList(body, 'application'),
					candidateIds: formList(body, 'candidate'),
				})
				const back = localBack(formText(body, 'back'), '/candidates')
				await report.seal(deps, cookie, session.sessionId, { action, back, lines })
				return seeOther(BULK_PATH)
			},
			{ session: { permission: 'inbox:read' }, body: formBody },
		)
		.get(
			BULK_PATH,
			async ({ session, cookie }) =>
				bulkReportPage(deps, session, await report.open(deps, cookie, session.sessionId), { href: '/candidates', text: 'Candidates' }),
			{ session: { permission: 'inbox:read' } },
		)
}
