/**
 * The messages on the application page (`pageSections`, page `application`): the latest messages
 * exchanged with the application's candidate, oldest first, as `get_application` gives them
 * (`messagesOfApplications`), each linking to its conversation. Only for people who read the inbox.
 * A received message is "From the candidate" only when it is theirs (from their own address, written
 * by a person, its sender verified or not checked); else it says what it is, as the candidate page
 * does (sender not verified, automatic reply, delivery report, someone else), and what we sent says
 * when a delivery report said it did not arrive.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { html, type SafeHtml } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { inList } from '../../core/sql-list.ts'
import { tag, when } from '../../core/ui.ts'
import { NOTES } from './candidate-section.ts'
import { messagesOfApplications } from './contributions.ts'
import { inboxMessages } from './table.ts'

interface MessageView {
	id: string
	threadId: string
	direction: 'in' | 'out'
	channel: string
	subject: string | null
	text: { text: string; writtenBy: string }
	at: string
	aboutThisApplication: boolean
}

interface Labels {
	note: keyof typeof NOTES | null
	bounced: boolean
}

/** What the candidate page says of each message beside who wrote it: the sender check, mail no person wrote, a bounce. */
async function labelsOf(deps: AppDeps, workspaceId: string, ids: string[]): Promise<Map<string, Labels>> {
	if (!ids.length) return new Map()
	const rows = await deps.database.rows<{
		id: string
		direction: string
		automatic: 'automatic' | 'delivery_report' | null
		senderCheck: string | null
		bounced: boolean
	}>(
		sql`select id, direction, automatic, sender_check as "senderCheck", bounced_at is not null as bounced from ${inboxMessages}
		where workspace_id = ${workspaceId} and id in ${inList(ids)}`,
	)
	return new Map(
		rows.map((r) => [
			r.id,
			{
				note: r.direction !== 'in' ? null : (r.automatic ?? (r.senderCheck === 'not_verified' ? 'not_verified' : null)),
				bounced: r.direction === 'out' && r.bounced,
			},
		]),
	)
}

/** Who a message is from or to, and a tag for what it is when that is not plain. */
function direction(m: MessageView, labels: Labels | undefined): { who: string; label: SafeHtml | null } {
	if (m.direction === 'out') return { who: 'To the candidate', label: labels?.bounced ? tag('Not delivered', 'bad') : null }
	if (labels?.note) return { who: 'Received', label: tag(NOTES[labels.note], 'warn') }
	return { who: m.text.writtenBy === 'candidate' ? 'From the candidate' : 'From someone else', label: null }
}

const CHANNELS: Record<string, string> = { email: 'e-mail', message: 'messaging app' }

export const applicationMessagesSection: PageSection = {
	page: 'application',
	order: 30,
	permission: 'inbox:read',
	async render(deps, session, applicationId) {
		const found = await messagesOfApplications(deps, session.actor, [applicationId])
		const messages = (found.get(applicationId)?.messages ?? []) as MessageView[]
		const labels = await labelsOf(
			deps,
			session.actor.workspaceId,
			messages.map((m) => m.id),
		)
		const body = messages.length
			? html`<ol class="entries">${messages.map((m) => {
					const { who, label } = direction(m, labels.get(m.id))
					return html`<li><p class="meta">${who} by ${CHANNELS[m.channel] ?? m.channel} · ${when(m.at)}${label ? html` · ${label}` : ''}${m.aboutThisApplication ? html` · ${tag('About this application', 'info')}` : ''}</p>
${m.subject ? html`<p><strong>${m.subject}</strong></p>` : ''}<p class="lines">${m.text}</p>
<p><a href="/inbox/${m.threadId}">Open the conversation<span class="visually-hidden">: ${m.subject ?? 'message'} of ${when(m.at)}</span></a></p></li>`
				})}</ol>`
			: html`<p class="empty">No messages with this candidate yet.</p>`
		return html`<section class="card" id="messages" aria-labelledby="messages-h"><div class="title-row"><h2 id="messages-h">Messages</h2><a class="button secondary" href="/inbox/new?application=${encodeURIComponent(applicationId)}">New message</a></div>
<p class="meta">The latest messages with the candidate, about any of their applications, oldest first.</p>${body}</section>`
	},
}
