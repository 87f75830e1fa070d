/**
 * Message templates (`/settings/templates`): shared and personal e-mail and text-message templates
 * with merge fields, the firm's footer (added by the outbox to everything sent to a candidate) and
 * each person's signature. New message and bulk messages fill them in with `fillIn` (a subject: `fillInLine`) and `mergeValues`.
 */
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { messageFooterPort } from '../outbox/index.ts'
import { templateRoutes } from './routes.ts'
import { seedTemplates } from './seed.ts'
import { footersOf } from './service.ts'
import * as tables from './table.ts'

export { fieldProblems, fieldsIn, fillIn, fillInLine, isMergeField, MERGE_FIELDS, type MergeField, type MergeValues } from './fields.ts'
export { getTemplate, listTemplates, setSignature, signatureOf, MAX_SIGNATURE, type Template, type TemplateChannel, type TemplateKind } from './service.ts'
export { mergeValues, nameParts, type MergeRecord } from './values.ts'
export { mergeFieldHelp, CHANNEL_LABELS } from './pages.ts'

export default defineModule({
	name: 'templates',
	description: 'Message templates with merge fields, the firm’s footer on everything sent to candidates, and people’s signatures.',
	requires: ['auth', 'activity', 'outbox', 'candidates', 'jobs', 'vendors'],
	checks: ['templates:share'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'templates:use', description: 'Use message templates and keep your own', grantedTo: ['owner', 'admin', 'recruiter'] },
		{ key: 'templates:share', description: 'Make shared message templates and set the firm’s footer', grantedTo: ['owner', 'admin'] },
	],
	routes: templateRoutes,
	paths: ['/settings/templates'],
	seed: seedTemplates,
	contributes: [contribute(messageFooterPort, { footerOf: footersOf })],
	nav: [{ href: '/settings/templates', label: 'Message templates', permission: 'templates:use' }],
	activityLabels: {
		'template.created': 'made the message template',
		'template.updated': 'changed the message template',
		'template.deleted': 'deleted the message template',
		'footer.updated': 'changed the firm’s message footer',
	},
	recordNames: [recordNamesFrom('message_template', 'message_templates', 'r.name', (id) => `/settings/templates/${id}`, 'owner_user_id')],
})
