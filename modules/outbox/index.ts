import { defineModule } from '../../core/module.ts'

export { enqueueMail, enqueueMessage, type NewMail, type NewMessage } from './service.ts'

export default defineModule({
	name: 'outbox',
	description: 'The durable outbox: e-mail (SMTP) and messaging-app messages, retried until delivered.',
	permissions: [{ key: 'outbox:read', description: 'See the outbox and the dev mailbox', grantedTo: ['owner', 'admin'] }],
})
