/** The "my day" workflow, offered to assistant apps as an MCP prompt. */
import { params } from '../../core/mcp/params.ts'
import { definePrompt } from '../../core/module.ts'

export const myDayPrompt = definePrompt({
	name: 'my_day',
	title: 'My day',
	description: 'What needs you today: your to-dos that are due, today’s interviews and events, and the candidates waiting for an answer. Changes nothing.',
	params: params({}),
	tools: ['list_todos', 'get_calendar', 'get_review_queue'],
	text: () =>
		[
			'Plan my day.',
			'1. list_todos: my open to-dos, overdue and due today first.',
			'2. get_calendar: today’s interviews and events, with times in my time zone.',
			'3. get_review_queue: the candidates and applications waiting for me.',
			'Answer with one short list in the order I should take them, each with why it matters today. Do not change anything.',
		].join('\n'),
})
