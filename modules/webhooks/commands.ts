/**
 * Operator commands: `webhook add|list|remove|replay|end-previous-secrets` (add makes a workspace
 * endpoint; list shows every endpoint of the workspace, its vendors' with their `vendorId`; the others
 * find any endpoint by id).
 */
import type { AppDeps } from '../../core/deps.ts'
import { AppError } from '../../core/errors.ts'
import type { CommandDef } from '../../core/module.ts'
import { operatorActor, requireWorkspace, workspacesById } from '../auth/index.ts'
import { addEndpoint, endPreviousSecrets, endpointOfDelivery, listEndpoints, removeEndpoint, replayDelivery, workspaceOfEndpoint } from './service.ts'

/** The operator acting in the endpoint's workspace. */
async function operatorOf(deps: AppDeps, endpointId: string, what: string) {
	const found = await workspaceOfEndpoint(deps, endpointId)
	const ws = found && (await workspacesById(deps.db, [found.workspaceId])).get(found.workspaceId)
	if (!ws) throw new AppError('NOT_FOUND', what)
	return operatorActor(ws)
}

export const webhookCommands: CommandDef[] = [
	{
		name: 'webhook add',
		usage: 'webhook add --workspace S --url U --events e1,e2 [--description D] [--json]',
		options: { workspace: 'string', url: 'string', events: 'string', description: 'string' },
		required: ['workspace', 'url', 'events'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			const events = String(o.events)
				.split(',')
				.map((e) => e.trim())
				.filter(Boolean)
			const { endpoint, secret, warnings } = await addEndpoint(deps, operatorActor(ws), {
				url: String(o.url),
				events,
				description: o.description === undefined ? '' : String(o.description),
			})
			// What the service adjusted (an event type in another case stored as listed), as the API says it: an
			// operator who typed JOB.PUBLISHED learns it is stored as job.published. Always a list in --json.
			return {
				json: { endpointId: endpoint.id, secret, warnings },
				lines: [
					`Added webhook endpoint ${endpoint.id} for ${endpoint.events.join(', ')}.`,
					...warnings.map((w) => `Warning: ${w}.`),
					`Signing secret (shown once, keep it secret): ${secret}`,
				],
			}
		},
	},
	{
		name: 'webhook list',
		usage: 'webhook list --workspace S [--json]',
		options: { workspace: 'string' },
		required: ['workspace'],
		async run(deps, o) {
			const ws = await requireWorkspace(deps.db, String(o.workspace))
			// Never the secrets: they were shown once and are stored sealed.
			const endpoints = (await listEndpoints(deps, operatorActor(ws))).map((e) => ({
				endpointId: e.id,
				url: e.url,
				events: e.events,
				enabled: e.enabled,
				createdAt: e.createdAt.toISOString(),
				// Null for the workspace's own; a vendor's endpoint was added with its API key (a leaked one, perhaps).
				vendorId: e.vendorId,
			}))
			return {
				json: { endpoints },
				lines: endpoints.length
					? endpoints.map((e) => `${e.endpointId}  ${e.enabled ? 'on ' : 'off'}  ${e.url}  ${e.events.join(',')}${e.vendorId ? `  vendor ${e.vendorId}` : ''}`)
					: [`No webhook endpoint in ${ws.slug} yet.`],
			}
		},
	},
	{
		name: 'webhook remove',
		usage: 'webhook remove --endpoint ID [--json]',
		options: { endpoint: 'string' },
		required: ['endpoint'],
		async run(deps, o) {
			const id = String(o.endpoint)
			await removeEndpoint(deps, await operatorOf(deps, id, `No webhook endpoint with the id "${id}"`), id)
			return { json: { endpointId: id, removed: true }, lines: [`Removed webhook endpoint ${id} and its delivery log.`] }
		},
	},
	{
		// A leaked secret is cut at once: the replaced secrets stop signing now, not at the end of their 24 hours.
		name: 'webhook end-previous-secrets',
		usage: 'webhook end-previous-secrets --endpoint ID [--json]',
		options: { endpoint: 'string' },
		required: ['endpoint'],
		async run(deps, o) {
			const id = String(o.endpoint)
			const { ended } = await endPreviousSecrets(deps, await operatorOf(deps, id, `No webhook endpoint with the id "${id}"`), id)
			return { json: { endpointId: id, ended }, lines: [`${ended} previous secret(s) of webhook endpoint ${id} no longer sign; only the current secret does.`] }
		},
	},
	{
		name: 'webhook replay',
		usage: 'webhook replay --delivery ID [--json]',
		options: { delivery: 'string' },
		required: ['delivery'],
		async run(deps, o) {
			const id = String(o.delivery)
			const missing = `No webhook delivery with the id "${id}"`
			const endpointId = await endpointOfDelivery(deps, id)
			if (!endpointId) throw new AppError('NOT_FOUND', missing)
			const delivery = await replayDelivery(deps, await operatorOf(deps, endpointId, missing), id)
			return {
				json: { deliveryId: delivery.id, endpointId: delivery.endpointId, status: delivery.status },
				lines: [`Delivery ${delivery.id} is queued again (same webhook-id); the worker sends it on its next round.`],
			}
		},
	},
]
