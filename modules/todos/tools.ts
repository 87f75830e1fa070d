/** The to-do tool: a thin adapter over `service.ts`. */
import { Type as t } from '@sinclair/typebox'
import { defineTool } from '../../core/module.ts'
import { cursor, id, limit, nullable, page, params, PersonRef } from '../../core/mcp/params.ts'
import { UntrustedLine, UntrustedText } from '../../core/untrusted.ts'
import { listTodos } from './service.ts'

const person = PersonRef
const Todo = t.Object({
	id: t.String(),
	title: UntrustedLine,
	notes: nullable(UntrustedText),
	dueAt: nullable(t.String({ format: 'date-time', description: 'A to-do with a due time is a follow-up on the calendar' })),
	overdue: t.Boolean(),
	done: t.Boolean(),
	doneAt: nullable(t.String({ format: 'date-time' })),
	source: t.String({ description: 'person (created by someone), or the flow that created it: document, interview' }),
	candidate: nullable(t.Object({ id: t.String(), name: UntrustedLine })),
	jobId: nullable(t.String()),
	applicationId: nullable(t.String()),
	assignee: person,
	createdBy: nullable(person),
	createdAt: t.String({ format: 'date-time' }),
})

export const todoTools = [
	defineTool({
		name: 'list_todos',
		title: 'List to-dos',
		description:
			'Your to-dos, open first (overdue and soonest due first), then done ones; or, with candidateId, every to-do about that candidate (anyone’s) whose job and application you can reach. Others’ words come without contact details if your role may not see them. To-dos come from people and from flows (a document received, a completed AI interview). Paged: pass nextCursor back as cursor.',
		params: params({ candidateId: t.Optional(id('candidate')), limit: t.Optional(limit()), cursor: t.Optional(cursor()) }),
		output: page('todos', Todo),
		readOnly: true,
		permission: 'todos:read',
		spec: 'R candidateId(string minLength=1 maxLength=160), limit(integer minimum=1 maximum=100 default=25), cursor(string minLength=1 maxLength=64)',
		testCalls: (r) => [
			{ limit: 100 },
			...r
				.seen('candidate')
				.slice(0, 2)
				.map((candidateId) => ({ candidateId })),
		],
		run: ({ deps, actor }, a) => listTodos(deps, actor, { candidateId: a.candidateId, limit: a.limit ?? 25, cursor: a.cursor }),
	}),
]
