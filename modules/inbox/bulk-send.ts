/**
 * Send message to several people at once from a template (issues 31 and 32): the controls the inbox
 * contributes to the candidates list (page section `candidates-list`) and to a job's stage list
 * (`job-stage-bulk`), and the route they post to. Each ticked candidate or application goes through
 * `composeMessage` with the template's subject and body: merge fields are filled for that record (an
 * application's job fills the job's), the message joins their conversation and is one activity line;
 * a record the template cannot be filled for (a field without a value), whose contact details do not
 * allow the template's channel, or out of reach is reported refused with the reason, and the others
 * go on; so is one that fails unexpectedly (logged). More than `BULK_LIMIT` records sends nothing and
 * says so. Then the shown-once report (core/bulk.ts).
 */
import { Elysia } from 'elysia'
import type { Actor } from '../../core/actor.ts'
import { bulkReportCookie, bulkReportPage, localBack, overBulkLimit, runBulk, type BulkLine } from '../../core/bulk.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formList, formText, seeOther } from '../../core/http/form.ts'
import type { HttpKit, PageSection } from '../../core/module.ts'
import { CHANNEL_LABELS, getTemplate, listTemplates, type Template } from '../templates/index.ts'
import { composeMessage, recipientOf, type ComposeTarget } from './compose.ts'

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

/**
 * One record's message from the template: done, or refused with the reason in words (`runBulk`: an
 * unexpected failure is that record's refusal too). One message per person: a candidate ticked with
 * one of their applications (or two of them) is written to once, for the first record ticked
 * (applications come first: their message fills the job's fields); the others are unchanged.
 */
const sendOne = (deps: AppDeps, actor: Actor, template: Template) => {
	const written = new Set<string>()
	return async (target: ComposeTarget, record: { name: string }): Promise<Omit<BulkLine, 'name'>> => {
		const recipient = await recipientOf(deps, actor, target)
		record.name = recipient.name.slice(0, 80) || record.name
		if (written.has(recipient.id)) return { result: 'unchanged', note: 'Already sent this message: one message per person.' }
		written.add(recipient.id)
		await composeMessage(deps, actor, { ...target, channel: template.channel, subject: template.subject ?? '', body: template.body, templateId: template.id })
		return { result: 'done' }
	}
}

const refusal = (error: AppError) => {
	if (error.code === 'NOT_FOUND') return 'Not found, or not yours to write to.'
	const why = error.fields?.length ? error.fields.map((f) => `${f.field} ${f.message}`).join('; ') : error.message
	return `${why}.`
}

export function bulkSendRoutes(deps: AppDeps, { auth }: HttpKit) {
	return new Elysia({ name: 'inbox.bulk-send' })
		.use(auth)
		.post(
			BULK_PATH,
			async ({ session, body, cookie }) => {
				const targets: ComposeTarget[] = [
					...[...new Set(formList(body, 'application'))].map((applicationId) => ({ applicationId })),
					...[...new Set(formList(body, 'candidate'))].map((candidateId) => ({ candidateId })),
				]
				// More than the limit is refused as a whole (core/bulk.ts), never cut short.
				const tooMany = overBulkLimit(targets.length, 'records')
				const back = localBack(formText(body, 'back'), '/candidates')
				let template: Template | null = null
				try {
					template = await getTemplate(deps, session.actor, formText(body, 'templateId'))
				} catch (error) {
					if (!(error instanceof AppError) || error.status >= 500) throw error
				}
				const lines = await runBulk(deps, template && !tooMany ? targets : [], {
					action: 'inbox.bulk-send',
					name: () => 'A candidate',
					step: sendOne(deps, session.actor, template!),
					refusal,
				})
				const action = tooMany
					? `Nothing sent: ${tooMany}`
					: !template
						? 'Nothing sent: choose a template'
						: targets.length
							? `Send “${template.name}”`
							: 'Nothing sent: tick at least one'
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
