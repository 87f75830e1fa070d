/**
 * A candidate's data lifecycle: export (a ZIP of everything held about them), erasure (every module
 * deletes its part through the `candidates:data` port; a federal contractor keeps an anonymous
 * applicant-flow record for the hold period) and the workspace's privacy rules (/settings/privacy).
 * A daily sweep deletes applicant-flow records whose hold has ended and erases the candidates the
 * workspace's retention rule says are inactive, e-mailing the owners a summary. People ask for
 * their data or its erasure on the workspace's public privacy page (`/careers/<slug>/privacy`,
 * linked under every message to a candidate and on the apply form); owners answer at
 * `/privacy-requests` within the 45 days the CCPA/CPRA allow; a request acts on the candidates with its
 * address and on what modules keep under the address alone (job alerts: the `privacy:address-data` port).
 */
import { Elysia } from 'elysia'
import { runEvery } from '../../core/every.ts'
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { workspacesById } from '../auth/index.ts'
import { auditKeepPort } from '../audit/index.ts'
import { candidateData } from '../candidates/index.ts'
import { privacyPagePort } from '../outbox/index.ts'
import { privacyCommands } from './commands.ts'
import { personalDataSection } from './pages.ts'
import { requestRoutes } from './request-routes.ts'
import { forgetOldRequests, openRequestCount, privacyPagePath } from './requests.ts'
import { privacyRoutes } from './routes.ts'
import { runRetention } from './retention.ts'
import { addressData } from './address-port.ts'
import { marketingMailData } from './marketing-mail.ts'
import { retentionFailuresData, retentionRetryQueue } from './retention-failures.ts'
import { auditHoldSince } from './rules.ts'
import { releaseEndedHolds } from './service.ts'
import { seedPrivacyRequests } from './seed.ts'
import * as tables from './table.ts'

export { eraseCandidate, exportCandidate, releaseEndedHolds, type CandidateExport, type Erasure } from './service.ts'
export { privacyRules, setPrivacyRules, type PrivacyRules } from './rules.ts'
export { runRetention, type RetentionRun } from './retention.ts'
export { privacyPagePath } from './requests.ts'
export { heldApplications } from './held.ts'
export { addressData, type AddressDataSource } from './address-port.ts'

const SWEEP_MS = 24 * 60 * 60 * 1000

export default defineModule({
	name: 'privacy',
	description: 'A candidate’s data: export, erasure with the federal contractor’s legal hold, and the workspace’s privacy rules.',
	requires: ['auth', 'activity', 'audit', 'outbox', 'events', 'candidates'],
	checks: ['privacy:erase'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{ key: 'privacy:export', description: 'Export everything held about a candidate', grantedTo: ['owner', 'admin'] },
		{ key: 'privacy:erase', description: 'Erase a candidate’s data', grantedTo: ['owner'] },
		{ key: 'privacy:settings', description: 'Set the workspace’s privacy rules (legal hold, retention)', grantedTo: ['owner'] },
		{ key: 'privacy:requests', description: 'See and answer people’s requests for their data or its erasure', grantedTo: ['owner'] },
	],
	routes: (deps, kit) => new Elysia({ name: 'privacy.all' }).use(privacyRoutes(deps, kit)).use(requestRoutes(deps, kit)),
	paths: ['/candidates', '/settings/privacy', '/privacy-requests', '/careers/:workspace/privacy'],
	commands: privacyCommands,
	seed: seedPrivacyRequests,
	ports: [addressData],
	queues: [retentionRetryQueue],
	contributes: [
		contribute(auditKeepPort, { keepSince: auditHoldSince }),
		contribute(candidateData, marketingMailData),
		contribute(candidateData, retentionFailuresData),
		contribute(privacyPagePort, {
			async urlOf(deps, db, workspaceId) {
				const ws = (await workspacesById(db, [workspaceId])).get(workspaceId)
				return ws ? `${deps.config.baseUrl}${privacyPagePath(ws.slug)}` : null
			},
		}),
	],
	nav: [
		{ href: '/settings/privacy', label: 'Privacy', permission: 'privacy:settings' },
		{
			href: '/privacy-requests',
			label: 'Privacy requests',
			permission: 'privacy:requests',
			countLabel: 'open',
			counter: (deps, session) => openRequestCount(deps, session.actor.workspaceId),
		},
	],
	pageSections: [personalDataSection],
	// Named by kind and confirmation date, not the address: admins read the activity log, not the requests.
	recordNames: [
		recordNamesFrom(
			'privacy_request',
			'privacy_requests',
			`(case r.kind when 'access' then 'for a copy of data' else 'for erasure' end) || ' of ' || to_char(r.confirmed_at at time zone 'UTC', 'Mon DD, YYYY')`,
			() => '/privacy-requests',
		),
	],
	activityLabels: {
		'candidate.erased': 'erased the data of',
		'privacy.rules_set': 'set the privacy rules of',
		'privacy_request.data_sent': 'sent their data in answer to the privacy request',
		'privacy_request.erased': 'erased the data in answer to the privacy request',
		'privacy_request.declined': 'declined the privacy request',
	},
	start(deps) {
		const sweep = async () => {
			await forgetOldRequests(deps).catch((error) => deps.log.warn('old privacy requests could not be deleted', { error }))
			await releaseEndedHolds(deps).then(
				(removed) => removed && deps.log.info('applicant-flow records past their legal hold deleted', { removed }),
				(error) => deps.log.warn('legal hold sweep failed', { error }),
			)
			await runRetention(deps).then(
				(runs) => {
					for (const run of runs) {
						if (run.erased) deps.log.info('inactive candidates erased by the retention rule', { ...run })
						if (run.failed) deps.log.warn('the retention rule could not erase some candidates; they are tried again after a backoff', { ...run })
					}
				},
				(error) => deps.log.warn('retention sweep failed', { error }),
			)
		}
		return runEvery(deps.log, { everyMs: SWEEP_MS, firstAfterMs: 90_000, failure: 'privacy sweep failed' }, sweep)
	},
})
