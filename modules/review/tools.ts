/** The review-queue tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, limit, nullable, page, params } from '../../core/mcp/params.ts'
import { UntrustedLine } from '../../core/untrusted.ts'
import { reviewQueue } from './service.ts'
import { UNSEEN_WINDOW_DAYS } from './window.ts'

const Item = t.Object({
	type: t.String({ description: 'Why: new_application, interview_completed, documents_received or reply_waiting' }),
	recordId: t.String({ description: 'The record behind it: the application, interview, conversation or document request' }),
	since: t.String({ format: 'date-time', description: 'Waiting since' }),
	reason: t.String({ description: 'One sentence in our words saying what needs attention and which tool opens it' }),
	candidate: t.Object({ id: t.String(), name: UntrustedLine, headline: nullable(UntrustedLine) }),
	job: nullable(t.Object({ id: t.String(), title: UntrustedLine })),
	applicationId: nullable(t.String()),
})

export const reviewTools = [
	defineTool({
		name: 'get_review_queue',
		title: 'Get my review queue',
		description: `Candidates needing your attention, oldest first, each with the reason: new applications on jobs of your hiring teams, completed AI interviews you have not opened, documents received, candidates’ replies you have not read. Unopened results and unread replies are listed for ${UNSEEN_WINDOW_DAYS} days (older ones stay in list_interview_results and the inbox). An entry leaves the queue once dealt with. Paged: pass nextCursor back as cursor.`,
		params: params({ limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('items', Item),
		readOnly: true,
		permission: 'review:read',
		spec: 'R limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: () => [{ limit: 100 }],
		run: ({ deps, actor }, a) => reviewQueue(deps, actor, { limit: a.limit ?? 25, cursor: a.cursor }),
	}),
]
