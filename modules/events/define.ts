/**
 * Event types and consumers: what the events module's two ports take.
 *
 * A module declares the events about the records it owns (`defineEvent`, contributed to `eventTypes`),
 * with the schema of their `data`: record ids and enumerations only, never free text, so an erasure
 * never has to look here. A consumer (`EventConsumer`, contributed to `eventConsumers`) names the types
 * it reads and handles them inside the transaction that moves its position, so what it writes (its own
 * queue rows) and the position commit together: exactly once, however many instances run.
 */
import type { Static, TObject } from '@sinclair/typebox'
import { definePort } from '../../core/module.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'

export interface EventType<D extends TObject = TObject> {
	/** `<record>.<what happened>`, e.g. `job.published`. */
	readonly type: string
	/** When it is written, for people reading the README and receivers. */
	readonly description: string
	/** Shape of `data`: ids and enumerations only. */
	readonly data: D
}

/** Identity function that fixes an event type's `data` type. */
export const defineEvent = <D extends TObject>(event: EventType<D>): EventType<D> => event

export type EventData<E extends EventType<any>> = Static<E['data']>

/** An event as consumers receive it. */
export interface StoredEvent {
	readonly seq: number
	readonly id: string
	/** The writing transaction's id (text: it may pass 2^53). */
	readonly txid: string
	readonly workspaceId: string
	readonly type: string
	readonly data: Record<string, unknown>
	readonly actorKind: string
	readonly actorUserId: string | null
	readonly actorVendorId: string | null
	readonly at: Date
}

export interface EventConsumer {
	/** Unique; names its position row. */
	readonly name: string
	readonly description: string
	/** The event types it reads (declared ones; the events module refuses others at start-up). */
	readonly types: readonly string[]
	/**
	 * Handles a batch, in order, inside the transaction that then moves the consumer's position: write
	 * to the database only (enqueue work for the module's own worker), never to the network. A throw
	 * rolls the batch back; it is tried again after a pause, never skipped.
	 */
	handle(deps: AppDeps, tx: Db, events: readonly StoredEvent[]): Promise<void>
}

export const eventTypes = definePort<EventType<any>>('events:type', 'An event type about records the module owns, with the schema of its data')
export const eventConsumers = definePort<EventConsumer>('events:consumer', 'Reads events of the types it names, each once, in order')

const TYPE_NAME = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/

/** Problems with the declared types and consumers (every one at once); empty when all is well. */
export function eventProblems(types: readonly EventType<any>[], consumers: readonly EventConsumer[]): string[] {
	const problems: string[] = []
	const declared = new Set<string>()
	for (const t of types) {
		if (!TYPE_NAME.test(t.type)) problems.push(`event type "${t.type}" must be <record>.<what happened> in lowercase words (e.g. job.published)`)
		if (declared.has(t.type)) problems.push(`event type "${t.type}" is declared twice`)
		declared.add(t.type)
	}
	const names = new Set<string>()
	for (const c of consumers) {
		if (names.has(c.name)) problems.push(`event consumer "${c.name}" is declared twice`)
		names.add(c.name)
		for (const type of c.types) if (!declared.has(type)) problems.push(`event consumer "${c.name}" reads "${type}", which no module declares`)
	}
	return problems
}
