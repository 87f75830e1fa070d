import { defineModule } from '../../core/module.ts'
import { eventConsumers, eventTypes } from './define.ts'
import { pruneEvents, startConsumers } from './consumers.ts'
import * as tables from './table.ts'
import { runEvery } from '../../core/every.ts'

export { defineEvent, eventConsumers, eventTypes, eventProblems, type EventConsumer, type EventData, type EventType, type StoredEvent } from './define.ts'
export { recordEvent, eventInsertFrom, eventValues, type EventActorSql } from './record.ts'
export { consumeOnce, drainEvents, registerConsumers, registeredConsumers, pruneEvents, startConsumers, BATCH_SIZE } from './consumers.ts'

/** Events are kept this long after every consumer has read them (replays read their own copies). */
const KEEP_DAYS = 30
const PRUNE_EVERY_MS = 3_600_000

export default defineModule({
	name: 'events',
	description: 'Domain events: what happened to records, written with the change, read once and in order by every module that consumes them.',
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	ports: [eventTypes, eventConsumers],
	start: (deps) => {
		const stopConsumers = startConsumers(deps)
		const stopPruning = runEvery(deps.log, { everyMs: PRUNE_EVERY_MS, failure: 'old events could not be pruned' }, () => pruneEvents(deps, KEEP_DAYS))
		return async () => {
			await stopPruning()
			await stopConsumers()
		}
	},
})
