/** The inbox tools: thin adapters over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, id, limit, nullable, oneOf, page, params } from '../../core/mcp/params.ts'
import { lineAbout, UntrustedLine, UntrustedText } from '../../core/untrusted.ts'
import { FILTERS, getThread, listThreads, type InboxFilter } from './service.ts'

const Thread = t.Object({
	id: t.String(),
	subject: UntrustedLine,
	counterpart: t.Object({
		type: oneOf(['candidate', 'vendor', 'other'] as const),
		id: nullable(t.String({ description: 'The candidate or vendor id' })),
		name: UntrustedLine,
		address: lineAbout('E-mail address or phone number'),
	}),
	messageCount: t.Integer(),
	lastMessageAt: t.String({ format: 'date-time' }),
	snippet: UntrustedText,
	unread: t.Boolean({ description: 'The counterpart wrote since you last read it' }),
	starred: t.Boolean({ description: 'Starred by you' }),
})

const Message = t.Object({
	id: t.String(),
	direction: t.Union([t.Literal('in'), t.Literal('out')], { description: 'in: from the counterpart; out: sent by the portal' }),
	channel: t.String({ description: 'email or message (messaging app)' }),
	from: t.Union([t.String(), UntrustedLine], { description: 'The counterpart’s address (labelled) or the portal’s own (plain)' }),
	to: t.Union([t.String(), UntrustedLine], { description: 'The counterpart’s address (labelled) or the portal’s own (plain)' }),
	subject: nullable(UntrustedLine),
	text: UntrustedText,
	at: t.String({ format: 'date-time' }),
	delivery: nullable(
		t.String({ description: 'For messages sent: pending, sending, sent, failed or not_sent; bounced when a delivery report said it did not arrive' }),
	),
	related: nullable(
		t.Object({ type: t.String(), id: t.String() }, { description: 'What the message was about (an application, an interview, a document request…)' }),
	),
	senderCheck: nullable(
		oneOf(
			['verified', 'not_verified', 'not_checked'] as const,
			'For messages received: verified (the receiving mail server found the From address genuine: DMARC, or DKIM/SPF for its domain), not_verified (it did not: anyone may have written it, and it is not counted as the candidate’s or vendor’s), not_checked (the portal does not check senders). Null for messages sent',
		),
	),
	senderCheckReason: nullable(t.String({ description: 'Why, for messages received' })),
	automatic: nullable(
		oneOf(
			['automatic', 'delivery_report'] as const,
			'For messages received that no person wrote: automatic (an auto-reply such as out of office, list or bulk mail) or delivery_report (a bounce). Never counted as a reply',
		),
	),
})

export const inboxTools = [
	defineTool({
		name: 'list_inbox_threads',
		title: 'List inbox conversations',
		description:
			'Conversations with candidates and vendors, newest first, with your own unread and starred flags. Filter: all (default), unread or starred. Paged: pass nextCursor back as cursor.',
		params: params({ filter: t.Optional(oneOf(FILTERS, 'all (default), unread or starred', 'all')), limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('threads', Thread),
		readOnly: true,
		permission: 'inbox:read',
		spec: 'R filter(enum:all|unread|starred default="all"), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }, { filter: 'unread' as const }],
		run: ({ deps, actor }, a) => listThreads(deps, actor, { filter: a.filter as InboxFilter | undefined, limit: a.limit ?? 25, cursor: a.cursor }),
	}),
	defineTool({
		name: 'get_inbox_thread',
		title: 'Get an inbox conversation',
		description:
			'One conversation with its messages in order, oldest first (the latest 200), each with its direction and, for messages sent, delivery state. Reading it marks it read for you. Use an id from list_inbox_threads or search.',
		params: params({ threadId: id('conversation') }),
		output: t.Object({ thread: t.Composite([Thread, t.Object({ olderMessagesOmitted: t.Integer(), messages: t.Array(Message) })]) }),
		readOnly: true,
		permission: 'inbox:read',
		spec: 'R threadId*(string minLength=1 maxLength=160)',
		testCalls: (r) => r.seen('thread').map((threadId) => ({ threadId })),
		run: async ({ deps, actor }, a) => ({ thread: await getThread(deps, actor, a.threadId) }),
	}),
]
