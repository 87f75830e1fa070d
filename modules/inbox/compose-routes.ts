/** New message (`/inbox/new`): GET shows the page (with a template filled in when one is chosen), POST sends. */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../core/deps.ts'
import type { AppError } from '../../core/errors.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { formBody, formText, isRefusal } from '../../core/http/form.ts'
import type { HttpKit } from '../../core/module.ts'
import { textOf } from '../../core/untrusted.ts'
import { candidateApplicationChoices } from '../candidates/index.ts'
import { search } from '../search/index.ts'
import { getTemplate, listTemplates, type MergeField, type Template } from '../templates/index.ts'
import { listVendors } from '../vendors/index.ts'
import { channelsOf, composeMessage, recipientOf, startFromTemplate, type ComposeChannel, type ComposeTarget, type Recipient } from './compose.ts'
import { composePage, type ComposeView, type Found } from './compose-page.ts'

const id = t.Optional(t.String({ maxLength: 160 }))
const query = t.Object({
	candidate: id,
	application: id,
	vendor: id,
	template: id,
	channel: t.Optional(t.String({ maxLength: 10 })),
	q: t.Optional(t.String({ maxLength: 120 })),
})
const FIELD_IDS: Record<string, string> = { channel: 'body', subject: 'subject', body: 'body' }
const LABELS: Record<string, string> = { channel: 'Channel', subject: 'Subject', body: 'Message' }

/** Candidates (by the search) and vendors (by name) the person may write to. */
async function find(deps: AppDeps, session: PageSession, q: string): Promise<Found[]> {
	const words = q.trim().toLowerCase()
	if ([...words].length < 2) return []
	const hits = (await search(deps, session.actor, words)).results.filter((h) => h.type === 'candidate')
	const vendors = (await listVendors(deps, session.actor, { limit: 100 })).vendors.filter((v) => textOf(v.name).toLowerCase().includes(words))
	return [
		...hits.map((h) => ({ kind: 'candidate' as const, id: h.id, name: textOf(h.title), detail: textOf(h.snippet) })),
		...vendors.map((v) => ({ kind: 'vendor' as const, id: v.id, name: textOf(v.name), detail: '' })),
	]
}

export function composeRoutes(deps: AppDeps, kit: HttpKit) {
	const show = async (
		session: PageSession,
		target: ComposeTarget,
		o: { templateId?: string; channel?: string; q?: string; typed?: { subject: string; body: string }; errors?: ComposeView['errors']; status?: number } = {},
	) => {
		const hasTarget = Boolean(target.candidateId || target.applicationId || target.vendorId)
		const recipient: Recipient | null = hasTarget ? await recipientOf(deps, session.actor, target) : null
		const base = { applications: [], templates: [], template: null, channel: null, subject: '', body: '', missing: [] as MergeField[] }
		if (!recipient) return composePage(deps, session, { ...base, recipient, q: o.q, found: o.q ? await find(deps, session, o.q) : undefined })
		const channels = channelsOf(recipient)
		const templates = await listTemplates(deps, session.actor)
		const template: Template | null = o.templateId ? await getTemplate(deps, session.actor, o.templateId) : null
		const started = template && !o.typed ? await startFromTemplate(deps, session.actor, recipient, template) : null
		const wanted = (template?.channel ?? o.channel) as ComposeChannel | undefined
		return composePage(deps, session, {
			recipient,
			applications: recipient.kind === 'candidate' ? await candidateApplicationChoices(deps, session.actor, recipient.id) : [],
			templates,
			template,
			channel: wanted && channels.includes(wanted) ? wanted : (channels[0] ?? null),
			subject: o.typed?.subject ?? started?.subject ?? '',
			body: o.typed?.body ?? started?.body ?? '',
			missing: started?.missing ?? [],
			errors: o.errors,
			status: o.status,
		})
	}
	return new Elysia({ name: 'inbox.compose' })
		.use(kit.auth)
		.get(
			'/inbox/new',
			({ session, query: q }) =>
				show(
					session,
					{ candidateId: q.candidate || undefined, applicationId: q.application || undefined, vendorId: q.vendor || undefined },
					{ templateId: q.template || undefined, channel: q.channel, q: q.q },
				),
			{ session: { permission: 'inbox:read' }, query },
		)
		.post(
			'/inbox/new',
			async ({ session, body, redirect }) => {
				const target = {
					candidateId: formText(body, 'candidate') || undefined,
					applicationId: formText(body, 'application') || undefined,
					vendorId: formText(body, 'vendor') || undefined,
				}
				const typed = { subject: formText(body, 'subject'), body: formText(body, 'body') }
				const templateId = formText(body, 'template') || undefined
				const channel = formText(body, 'channel')
				try {
					const sent = await composeMessage(deps, session.actor, { ...target, templateId, channel, ...typed })
					return redirect(`/inbox/${sent.threadId}?done=${sent.repeated ? 'repeated' : sent.status === 'not_sent' ? 'not-sent' : 'sent'}`, 303)
				} catch (error) {
					if (!isRefusal(error)) throw error
					const errors = (error as AppError).fields?.map((f) => ({
						field: FIELD_IDS[f.field] ?? 'body',
						message: `${LABELS[f.field] ?? f.field} ${f.message.replace(/\.$/, '')}.`,
					})) ?? [{ field: 'body', message: (error as AppError).message }]
					return show(session, target, { templateId, channel, typed, errors, status: 422 })
				}
			},
			{ session: { permission: 'inbox:read' }, body: formBody },
		)
}
