import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { applicationDetails, candidateData } from '../candidates/index.ts'
import { reviewSources } from '../review/index.ts'
import { searchProviders } from '../search/index.ts'
import { bulkSendApplicationsSection, bulkSendCandidatesSection } from './bulk-send.ts'
import { inboxHomeSection } from './home.ts'
import { applicationMessagesSection } from './application-section.ts'
import { messagesSection } from './candidate-section.ts'
import { vendorMessagesSection } from './vendor-section.ts'
import { inboxSearchProvider, messagesOfApplications, repliesWaitingSource } from './contributions.ts'
import { inboxRoutes } from './routes.ts'
import { seedInbox } from './seed.ts'
import { mailHtmlReaders } from './html-text.ts'
import { inboxSettings } from './settings.ts'
import { startOutboxSync } from './sync.ts'
import { threadAddresses } from './threads.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { inboxTools } from './tools.ts'
import { unreadThreadCount } from './service.ts'
import * as tables from './table.ts'
import { inboxData, inboxMentionsData } from './data.ts'

export { syncOutbox } from './sync.ts'
export { replyPart } from './inbound.ts'

export default defineModule({
	name: 'inbox',
	settings: inboxSettings,
	description: 'The inbox: conversations with candidates and vendors, threaded from what the portal sends and the replies that come in.',
	requires: ['auth', 'activity', 'candidates', 'vendors', 'outbox', 'jobs', 'search', 'review', 'templates'],
	checks: ['inbox:read'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'inbox:read', description: 'Read and answer the workspace’s conversations with candidates and vendors', grantedTo: ['owner', 'admin', 'recruiter'] },
	],
	tools: inboxTools,
	routes: inboxRoutes,
	paths: ['/inbox', '/api/inbox'],
	pools: [mailHtmlReaders],
	contributes: [
		contribute(candidateData, inboxData),
		contribute(candidateData, inboxMentionsData),
		contribute(searchProviders, inboxSearchProvider),
		contribute(reviewSources, repliesWaitingSource),
		contribute(applicationDetails, messagesOfApplications),
	],
	seed: seedInbox,
	nav: [
		{
			href: '/inbox',
			label: 'Inbox',
			permission: 'inbox:read',
			section: 'work',
			order: 30,
			countLabel: 'unread',
			counter: (deps, session) => unreadThreadCount(deps, session.actor),
		},
	],
	start: (deps) => {
		// Once per start: addresses stored before they had one normal form (core/stored-addresses.ts).
		void rewriteStoredAddresses(deps, ...threadAddresses)
		return startOutboxSync(deps)
	},
	pageSections: [inboxHomeSection, applicationMessagesSection, messagesSection, vendorMessagesSection, bulkSendCandidatesSection, bulkSendApplicationsSection],
	activityLabels: {
		'inbox.replied': 'replied in the conversation',
		'inbox.message_sent': 'wrote a new message to',
		'inbox.marked_read': 'marked as read the conversation',
	},
	recordNames: [recordNamesFrom('inbox_thread', 'inbox_threads', 'r.subject', (id) => `/inbox/${id}`)],
})
