/**
 * The messages section of the candidate page (people who read the inbox): the latest messages
 * exchanged with the candidate, each linking to its conversation in the inbox.
 */
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { PageSession } from '../../core/http/auth.ts'
import { breakable, html } from '../../core/html.ts'
import type { PageSection } from '../../core/module.ts'
import { untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { dataTable, tag, when } from '../../core/ui.ts'
import { writerOf } from './service.ts'
import { syncOutbox } from './sync.ts'
import { inboxMessages, inboxThreads } from './table.ts'

const SHOWN = 10

interface MessageLine {
	id: string
	threadId: string
	direction: 'in' | 'out'
	channel: string
	subject: UntrustedText
	preview: UntrustedText
	/** For a received message: mail no person wrote, or a sender that was not verified (else null). */
	note: 'automatic' | 'delivery_report' | 'not_verified' | null
	/** For a message we sent: a delivery report said it did not arrive. */
	bounced: boolean
	at: string
}

/** The candidate's latest messages, newest first (callers have checked the candidate is within reach). */
export async function candidateMessages(deps: AppDeps, actor: Actor, candidateId: string, limit = SHOWN): Promise<MessageLine[]> {
	await syncOutbox(deps, actor.workspaceId)
	const rows = await deps.database.rows<{
		id: string
		threadId: string
		direction: 'in' | 'out'
		writtenBy: string | null
		sentBy: string | null
		channel: string
		subject: string | null
		threadSubject: string
		text: string
		automatic: 'automatic' | 'delivery_report' | null
		senderCheck: string | null
		bounced: boolean
		at: Date | string
	}>(
		sql`select m.id, m.thread_id as "threadId", m.direction, m.written_by as "writtenBy", m.sent_by_user_id as "sentBy", m.channel, m.subject, t.subject as "threadSubject", left(m.text, 400) as text,
	m.automatic, m.sender_check as "senderCheck", m.bounced_at is not null as bounced, m.at
from ${inboxThreads} t join ${inboxMessages} m on m.thread_id = t.id
where t.workspace_id = ${actor.workspaceId} and t.candidate_id = ${candidateId} order by m.at desc, m.seq desc limit ${limit}`,
	)
	// Written by the candidate (from their own address), by someone else or by colleagues: one inert line each.
	return rows.map((r) => {
		const by = writerOf(r.writtenBy, r.direction, 'candidate', { by: r.sentBy, reader: actor })
		return {
			id: r.id,
			threadId: r.threadId,
			direction: r.direction,
			channel: r.channel,
			subject: untrustedLine(r.subject ?? r.threadSubject, by, 120),
			preview: untrustedLine(r.text, by, 160),
			note: r.direction !== 'in' ? null : (r.automatic ?? (r.senderCheck === 'not_verified' ? 'not_verified' : null)),
			bounced: r.direction === 'out' && r.bounced,
			at: new Date(r.at).toISOString(),
		}
	})
}

/** A received message that is no reply of the candidate's, whatever its From says. */
export const NOTES = { automatic: 'Automatic reply', delivery_report: 'Delivery report', not_verified: 'Sender not verified' } as const

export const messagesSection: PageSection = {
	page: 'candidate',
	order: 40,
	permission: 'inbox:read',
	async render(deps: AppDeps, session: PageSession, candidateId: string) {
		if (!session.actor.userId) return null
		const messages = await candidateMessages(deps, session.actor, candidateId)
		return html`<section class="card" id="messages" aria-labelledby="messages-h"><div class="title-row"><h2 id="messages-h">Messages</h2><a class="button secondary" href="/inbox/new?candidate=${encodeURIComponent(candidateId)}">New message</a></div>
${dataTable<MessageLine>({
	caption: 'Latest messages with the candidate',
	hideCaption: true,
	rows: messages,
	empty: 'No messages with this candidate yet.',
	columns: [
		{
			label: 'Message',
			cell: (m) =>
				html`<a href="/inbox/${m.threadId}">${m.subject || 'No subject'}</a>${m.preview ? html`<br><span class="meta">${breakable(m.preview)}</span>` : ''}`,
		},
		{ label: 'When', cell: (m) => when(m.at) },
		{ label: 'By', cell: (m) => (m.channel === 'email' ? 'E-mail' : 'Text message') },
		{
			label: 'Direction',
			cell: (m) =>
				m.direction === 'out'
					? m.bounced
						? tag('Not delivered', 'bad')
						: tag('To the candidate')
					: m.note
						? tag(NOTES[m.note], 'warn')
						: m.preview.writtenBy === 'candidate'
							? tag('From the candidate', 'info')
							: tag('From someone else', 'warn'),
		},
	],
})}
${messages.length === SHOWN ? html`<p class="meta">The latest ${SHOWN} messages; the whole conversations are in the inbox.</p>` : ''}</section>`
	},
}
