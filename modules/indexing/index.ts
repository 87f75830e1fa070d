/**
 * Search engines learn of job pages as they change: IndexNow (Bing, Yandex and the others that take
 * part, through the shared endpoint) and the Google Indexing API, whose one supported use is job
 * postings. The events consumer queues a page per change; the worker announces them in batches.
 * Each is off until its settings are given (`INDEXNOW_KEY`, `GOOGLE_INDEXING_CREDENTIALS`).
 */
import { contribute, defineModule } from '../../core/module.ts'
import { eventConsumers } from '../events/index.ts'
import { indexingConsumer } from './consumer.ts'
import { indexingQueue } from './queue.ts'
import { indexingRoutes } from './routes.ts'
import { indexingSettings } from './settings.ts'
import * as tables from './table.ts'
import { startIndexingWorker } from './worker.ts'

export { sendDueNotices, RETRY_SCHEDULE_MS } from './worker.ts'
export { indexingSettings } from './settings.ts'

export default defineModule({
	name: 'indexing',
	description: 'Search engines told of job pages as they go live, change and close (IndexNow, the Google Indexing API).',
	requires: ['auth', 'events', 'jobs'],
	settings: indexingSettings,
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	routes: indexingRoutes,
	// The key file lives at the site's root, named after the key (the IndexNow protocol).
	paths: ['/*.txt'],
	contributes: [contribute(eventConsumers, indexingConsumer)],
	queues: [indexingQueue],
	start: (deps) => startIndexingWorker(deps),
})
