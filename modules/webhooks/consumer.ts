/**
 * The webhooks' event consumer: turns each domain event into one delivery row per endpoint that
 * subscribes to it, in the consumer's transaction (so an event becomes its deliveries exactly once,
 * whatever the number of instances). Endpoints switched off get nothing meanwhile. A vendor's endpoint
 * gets an event only when the event names that vendor (its own job, a candidate submitted to it), and
 * nothing while the firm has switched the vendor's API access off. Nothing is sent from here: the
 * worker sends (deliveries queued before the switch still go, within their retry schedule).
 *
 * The body is fixed now and sent unchanged on every attempt: `{"type","timestamp","data"}`, `data`
 * being the event's own (ids and enumerations), plus a job's title and the vendor's own job id for
 * the events about a job, so a receiver can act without a second call. Never a credential, an upload
 * link or a file.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import type { EventConsumer, StoredEvent } from '../events/index.ts'
import { jobRefs } from '../jobs/index.ts'
import { vendorsCutOff } from '../vendors/index.ts'
import { webhookDeliveries, webhookEndpoints } from './table.ts'
import { SUBSCRIBABLE, VENDOR_SCOPED } from './types.ts'

const INSERT_CHUNK = 500

interface Target {
	id: string
	workspaceId: string
	vendorId: string | null
	events: string[]
}

/** Whether `endpoint` receives `event`. */
export function receives(endpoint: Target, event: Pick<StoredEvent, 'workspaceId' | 'type' | 'data'>): boolean {
	if (endpoint.workspaceId !== event.workspaceId || !endpoint.events.includes(event.type)) return false
	if (endpoint.vendorId === null) return true
	return VENDOR_SCOPED.has(event.type) && event.data.vendorId === endpoint.vendorId
}

type JobFacts = Map<string, { title: string; vendorJobId: string | null }>

/** The payload's data: the event's, plus the job's title and the vendor's own id for it where the event is about a job. */
export function payloadData(
	event: Pick<StoredEvent, 'type' | 'data'>,
	facts: JobFacts,
	audience: 'workspace' | 'vendor' = 'workspace',
): Record<string, unknown> {
	const jobId = event.data.jobId
	const job = typeof jobId === 'string' ? facts.get(jobId) : undefined
	const data = !job
		? event.data
		: event.type.startsWith('job.') || event.type === 'submission.created'
			? { ...event.data, jobTitle: job.title, vendorJobId: job.vendorJobId }
			: { ...event.data, jobTitle: job.title }
	// A vendor reads a job's status in its own API's words: open, or closed (a Draft is not live either).
	if (audience === 'vendor' && event.type.startsWith('job.') && typeof data.status === 'string')
		return { ...data, status: data.status === 'Open' ? 'open' : 'closed' }
	return data
}

async function jobFacts(deps: AppDeps, tx: Db, events: readonly StoredEvent[]): Promise<JobFacts> {
	const facts: JobFacts = new Map()
	for (const workspaceId of new Set(events.map((e) => e.workspaceId))) {
		const ids = events.filter((e) => e.workspaceId === workspaceId && typeof e.data.jobId === 'string').map((e) => e.data.jobId as string)
		for (const [id, ref] of await jobRefs(deps, workspaceId, ids, tx)) facts.set(id, { title: ref.title, vendorJobId: ref.vendorJobId })
	}
	return facts
}

export const webhookConsumer: EventConsumer = {
	name: 'webhooks',
	description: 'Queues a signed delivery to every webhook endpoint subscribed to the event',
	types: SUBSCRIBABLE,
	async handle(deps: AppDeps, tx: Db, events: readonly StoredEvent[]) {
		const workspaceIds = [...new Set(events.map((e) => e.workspaceId))]
		const enabled: Target[] = await tx
			.select({ id: webhookEndpoints.id, workspaceId: webhookEndpoints.workspaceId, vendorId: webhookEndpoints.vendorId, events: webhookEndpoints.events })
			.from(webhookEndpoints)
			.where(and(inArray(webhookEndpoints.workspaceId, workspaceIds), eq(webhookEndpoints.enabled, true)))
		// A vendor whose API access the firm switched off gets no events either (its keys already get 403).
		const cutOff = await vendorsCutOff(
			tx,
			enabled.flatMap((e) => (e.vendorId ? [e.vendorId] : [])),
		)
		const endpoints = enabled.filter((e) => !e.vendorId || !cutOff.has(e.vendorId))
		if (!endpoints.length) return
		const wanted = events.filter((e) => endpoints.some((ep) => receives(ep, e)))
		if (!wanted.length) return
		const facts = await jobFacts(deps, tx, wanted)
		const rows: (typeof webhookDeliveries.$inferInsert)[] = []
		for (const event of wanted) {
			const bodyFor = (audience: 'workspace' | 'vendor') =>
				JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: payloadData(event, facts, audience) })
			// Each audience's body once, and only for an audience that receives the event.
			const bodies = new Map<'workspace' | 'vendor', string>()
			const bodyOf = (audience: 'workspace' | 'vendor') => bodies.get(audience) ?? bodies.set(audience, bodyFor(audience)).get(audience)!
			for (const ep of endpoints)
				if (receives(ep, event))
					rows.push({
						id: newId('msg'),
						endpointId: ep.id,
						workspaceId: event.workspaceId,
						eventId: event.id,
						type: event.type,
						body: bodyOf(ep.vendorId ? 'vendor' : 'workspace'),
						createdAt: event.at,
					})
		}
		for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx.insert(webhookDeliveries).values(rows.slice(i, i + INSERT_CHUNK))
	},
}
