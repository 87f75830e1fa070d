import { contribute, defineModule } from '../../core/module.ts'
import { candidateData } from '../candidates/index.ts'
import { unsubscribedPort } from '../outbox/index.ts'
import { addressData } from '../privacy/index.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { alertAddresses, forgetUnconfirmedAlerts, forgetUnsubscribed, sendDigests } from './alerts.ts'
import { jobAlertsByAddress, jobAlertsData } from './alerts-data.ts'
import { careersCommands } from './commands.ts'
import { careersRoutes } from './routes.ts'
import * as tables from './table.ts'
import { runEvery } from '../../core/every.ts'

export { sendDigests, type DigestRun } from './alerts.ts'

/** Hourly: an alert is due a day after its last digest, whatever the hour it was sent. */
const SWEEP_MS = 60 * 60 * 1000

export default defineModule({
	name: 'careers',
	description: 'The public careers site: job search, job pages with JobPosting data, job alerts by e-mail, the sitemap.',
	requires: ['auth', 'jobs', 'analytics', 'candidates', 'eeo', 'outbox', 'privacy'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	routes: careersRoutes,
	paths: ['/', '/careers', '/sitemap.xml', '/sitemaps', '/robots.txt'],
	commands: careersCommands,
	contributes: [
		contribute(candidateData, jobAlertsData),
		contribute(addressData, jobAlertsByAddress),
		contribute(unsubscribedPort, { unsubscribed: forgetUnsubscribed }),
	],
	// Job-alert digests, as the privacy module's sweep: each alert gets at most one a day
	// (claimed in the transaction that queues it, so several instances never send one twice).
	start(deps) {
		// Once per start: addresses stored before they had one normal form (core/stored-addresses.ts).
		void rewriteStoredAddresses(deps, alertAddresses)
		const sweep = () =>
			sendDigests(deps).then(
				(run) => run.sent && deps.log.info('job-alert digests queued', { ...run }),
				(error) => deps.log.warn('job-alert digest sweep failed', { error }),
			)
		// Pending alerts whose link stopped working are deleted: an address someone typed and never confirmed is not kept.
		const forget = () => forgetUnconfirmedAlerts(deps).catch((error) => deps.log.warn('unconfirmed job alerts could not be deleted', { error }))
		return runEvery(deps.log, { everyMs: SWEEP_MS, firstAfterMs: 120_000, failure: 'careers sweep failed' }, () => Promise.all([sweep(), forget()]))
	},
})
