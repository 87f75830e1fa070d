/**
 * Demo templates: the shared ones a staffing firm starts with (first contact, next steps, a job
 * alert, a text), and a signature for each person (their name and the firm's).
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId } from '../../core/seed-random.ts'
import { listPeople, workspacesById } from '../auth/index.ts'
import { messageSignatures, messageTemplates } from './table.ts'

const TEMPLATES = [
	{
		key: 'first-contact',
		name: 'First contact about a role',
		channel: 'email',
		kind: 'transactional',
		subject: '{{job.title}}: a role that fits your background',
		body: 'Hi {{candidate.firstName}},\n\nI came across your profile and think you would be a strong fit for our {{job.title}} role. The details are here: {{job.url}}\n\nWould you have 15 minutes this week for a quick call?\n\n{{recruiter.signature}}',
	},
	{
		key: 'next-steps',
		name: 'Next steps after the screening call',
		channel: 'email',
		kind: 'transactional',
		subject: 'Next steps for {{job.title}}',
		body: 'Hi {{candidate.firstName}},\n\nThank you for your time today. As discussed, I am putting you forward for {{job.title}}. I will come back to you with the client’s feedback within two working days.\n\n{{recruiter.signature}}',
	},
	{
		key: 'job-alert',
		name: 'Job alert: new role',
		channel: 'email',
		kind: 'marketing',
		subject: 'New role: {{job.title}}',
		body: 'Hi {{candidate.firstName}},\n\nA new role has opened that matches what you told us you are looking for: {{job.title}}.\n\nSee it and apply: {{job.url}}\n\n{{recruiter.name}}, {{firm.name}}',
	},
	{
		key: 'text-call',
		name: 'Text: quick call?',
		channel: 'text',
		kind: 'transactional',
		subject: null,
		body: 'Hi {{candidate.firstName}}, this is {{recruiter.name}} from {{firm.name}} about the {{job.title}} role. Is now a good time for a quick call?',
	},
] as const

export async function seedTemplates(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	await deps.db
		.insert(messageTemplates)
		.values(
			TEMPLATES.map(({ key, ...t }) => ({
				id: seededId('tpl', ws.id, key),
				workspaceId: ws.id,
				ownerUserId: null,
				...t,
			})),
		)
		.onConflictDoNothing()
	const firm = (await workspacesById(deps.db, [ws.id])).get(ws.id)?.name ?? ''
	const people = await listPeople(deps.db, ws.id)
	if (people.length)
		await deps.db
			.insert(messageSignatures)
			.values(people.map((p) => ({ workspaceId: ws.id, userId: p.userId, signature: `${p.name}\n${firm}` })))
			.onConflictDoNothing()
}
