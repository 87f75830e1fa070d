/** The vendor webhook operations in the Job Publish API's OpenAPI description and docs page (`jobs:api-operations`). */
import type { ApiOperations } from '../jobs/index.ts'
import { MAX_URL_LENGTH } from './address.ts'
import { MAX_DESCRIPTION } from './service.ts'
import { CAUSES, DISABLED_CAUSES } from './switch-off.ts'
import { VENDOR_SUBSCRIBABLE } from './types.ts'

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
const json = (description: string, ref: string) => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } })
const COMMON = {
	401: error('Key missing, malformed, unknown or revoked'),
	403: error('API access is switched off for this vendor'),
	429: {
		...error('Too many requests; wait the number of seconds given in the Retry-After header'),
		headers: { 'Retry-After': { schema: { type: 'integer' } } },
	},
}
/** Each reason an endpoint is off, with what it means to the vendor: `switched_off_by_firm` (…); `api_key_revoked` (…)… */
const causesInWords = DISABLED_CAUSES.map((c) => `\`${c}\`: ${CAUSES[c].forVendor}`).join('; ')

const eventType = { type: 'string', enum: [...VENDOR_SUBSCRIBABLE] }
/** An endpoint as every answer shows it (rest-routes.ts, `restEndpoint`): listed, read, and added (with its secret). */
const endpointProps = {
	id: { type: 'string', description: 'The endpoint’s id (`whe_…`)' },
	url: { type: 'string', format: 'uri' },
	events: { type: 'array', items: eventType },
	description: {
		anyOf: [{ type: 'string' }, { type: 'null' }],
		description: 'What you wrote, as stored (one line; direction controls and invisible characters removed); null when none',
	},
	enabled: { type: 'boolean', description: 'False while the endpoint is switched off: it receives nothing' },
	disabledReason: {
		anyOf: [{ type: 'string', enum: [...DISABLED_CAUSES] }, { type: 'null' }],
		description: `Why the endpoint is off (null while it is on): ${causesInWords}.`,
	},
	createdAt: { type: 'string', format: 'date-time' },
}
const endpointRequired = ['id', 'url', 'events', 'description', 'enabled', 'disabledReason', 'createdAt']
const warnings = {
	type: 'array',
	items: { type: 'string' },
	description:
		'What the service adjusted: an event type sent in another case stored as listed; unknown fields ignored, and the fields of an answer sent back (id, disabledReason, createdAt, secret; and enabled on POST: the service makes them)',
}

export const webhookApiOperations: ApiOperations = {
	paths: {
		'/webhooks': {
			post: {
				operationId: 'createWebhook',
				summary: 'Add a webhook endpoint for events about your own jobs; the signing secret is in this answer only',
				requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookBody' } } } },
				responses: {
					201: {
						...json('Added; keep `secret` (whsec_…): it is never shown again', 'WebhookCreated'),
						headers: { Location: { description: 'The endpoint’s address, `/api/v1/webhooks/{id}`', schema: { type: 'string' } } },
					},
					400: error('Body is not JSON, or an object in it names a member twice'),
					...COMMON,
					413: error('Body larger than 16 KB'),
					415: error(
						'Content-Type declares a charset other than UTF-8 (utf-8, us-ascii or none are read), or the body is compressed (Content-Encoding: send it uncompressed)',
					),
					409: error(
						'Not added: you have 20 endpoints already, or the firm switched off your endpoint at this address (it stays off until the firm switches it on again)',
					),
					422: error(
						'A field is not valid (`fields` names it): a URL that is not https:// or is a private, loopback or link-local address, an unknown event type',
					),
				},
			},
			get: {
				operationId: 'listWebhooks',
				summary: 'Your webhook endpoints (never their secrets)',
				responses: {
					200: {
						description: 'The endpoints',
						content: {
							'application/json': {
								schema: {
									type: 'object',
									properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/Webhook' } } },
									required: ['webhooks'],
								},
							},
						},
					},
					...COMMON,
				},
			},
		},
		'/webhooks/{id}': {
			parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 160 } }],
			get: {
				operationId: 'getWebhook',
				summary: 'One of your webhook endpoints (never its secret)',
				responses: {
					200: json('The endpoint, as the list shows it', 'Webhook'),
					...COMMON,
					404: error('You have no webhook endpoint with that id'),
				},
			},
			patch: {
				operationId: 'changeWebhook',
				summary: 'Change a webhook endpoint in place (its address, event types, description; switch it on or pause it), its signing secret kept',
				requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookChange' } } } },
				responses: {
					200: json('The endpoint after the change, as GET shows it, with `warnings` when something was adjusted or ignored', 'WebhookChanged'),
					400: error('Body is not JSON, or an object in it names a member twice'),
					...COMMON,
					404: error('You have no webhook endpoint with that id'),
					409: error(
						'Not changed: the firm switched this endpoint off (it stays off, at its address, until the firm switches it on again), or the new address is one at which the firm switched off an endpoint of yours',
					),
					413: error('Body larger than 16 KB'),
					415: error('Content-Type declares a charset other than UTF-8, or the body is compressed'),
					422: error('A field is not valid (`fields` names it), judged as on POST: the address, the event types, the description; `enabled` not true or false'),
				},
			},
			delete: {
				operationId: 'deleteWebhook',
				summary: 'Remove a webhook endpoint and its delivery log',
				responses: {
					204: { description: 'Removed' },
					...COMMON,
					404: error('You have no webhook endpoint with that id'),
					409: error('The firm switched this endpoint off: it stays until the firm switches it on again or deletes it'),
				},
			},
		},
		'/webhooks/{id}/rotate-secret': {
			parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 160 } }],
			post: {
				operationId: 'rotateWebhookSecret',
				summary: 'A new signing secret for one of your endpoints; the one it replaces keeps signing beside it for 24 hours',
				responses: {
					200: json('Rotated; keep `secret`: it is never shown again', 'WebhookSecretRotated'),
					...COMMON,
					404: error('You have no webhook endpoint with that id'),
					409: error('Not rotated: 3 replaced secrets still sign beside the current one (the most kept at once); try again when the oldest ends'),
				},
			},
		},
	},
	schemas: {
		WebhookChange: {
			type: 'object',
			description: 'Only the fields sent change; an empty object changes nothing.',
			properties: {
				url: {
					type: 'string',
					format: 'uri',
					maxLength: MAX_URL_LENGTH,
					description: 'A new https:// address on the public internet (what waits to be retried goes there)',
				},
				events: {
					type: 'array',
					items: eventType,
					minItems: 1,
					description: 'The event types to receive from now on, replacing the list; any case, as on POST',
				},
				description: { anyOf: [{ type: 'string', maxLength: MAX_DESCRIPTION }, { type: 'null' }], description: 'null or "" is no description' },
				enabled: {
					type: 'boolean',
					description:
						'true switches on an endpoint that is off (paused by you, or switched off after a 410 Gone or 5 days of failures) and clears its failures, and what waited is sent; false pauses it: no event is queued for it until it is on again. One the firm switched off stays off (409).',
				},
			},
		},
		WebhookChanged: {
			type: 'object',
			properties: { ...endpointProps, warnings },
			required: endpointRequired,
		},
		WebhookSecretRotated: {
			type: 'object',
			properties: {
				...endpointProps,
				secret: { type: 'string', description: 'The new signing secret (whsec_…): shown only here' },
				previousSecretValidUntil: {
					type: 'string',
					format: 'date-time',
					description: 'Until then the secret it replaced signs too: each delivery carries one signature per secret in `webhook-signature`',
				},
			},
			required: [...endpointRequired, 'secret', 'previousSecretValidUntil'],
		},
		WebhookBody: {
			type: 'object',
			properties: {
				url: { type: 'string', format: 'uri', maxLength: MAX_URL_LENGTH, description: 'An https:// address on the public internet' },
				events: {
					type: 'array',
					items: eventType,
					minItems: 1,
					description:
						'The event types to receive: about your own jobs, and candidates submitted to you. Accepted in any case (e.g. "JOB.PUBLISHED"): stored as listed, with a warning saying so.',
				},
				description: {
					anyOf: [{ type: 'string', maxLength: MAX_DESCRIPTION }, { type: 'null' }],
					description: 'What receives the events, in your words: one line; null or none is no description',
				},
			},
			required: ['url', 'events'],
		},
		Webhook: { type: 'object', properties: endpointProps, required: endpointRequired },
		WebhookCreated: {
			type: 'object',
			properties: {
				...endpointProps,
				secret: { type: 'string', description: 'The signing secret (Standard Webhooks): shown only here' },
				warnings,
			},
			required: [...endpointRequired, 'secret'],
		},
	},
	docs: [
		`POST /webhooks adds an endpoint (\`{"url","events"}\`, optionally \`"description"\`; event types in any case, stored as listed; other fields are ignored; a \`warnings\` list says what was adjusted) for ${VENDOR_SUBSCRIBABLE.map((e) => `\`${e}\``).join(', ')} about your own jobs: 201 with the endpoint as the list shows it and its signing \`secret\`, shown only then. Deliveries are signed as Standard Webhooks says (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) and retried for about a day; answering 410 switches the endpoint off.`,
		`GET /webhooks lists your endpoints, without their secrets; \`enabled\` is false for one switched off, and \`disabledReason\` says why (null while on): ${causesInWords}.`,
		'GET /webhooks/{id} returns one of your endpoints, as the list shows it; another vendor’s id is 404, as an unknown one is.',
		'PATCH /webhooks/{id} changes one in place, its signing secret kept: any of `url`, `events` (replacing the list), `description`, judged as on POST, and `enabled` (`true` switches on one that is off, paused by you or switched off after a 410 Gone or 5 days of failures, clears its failures and sends what waited; `false` pauses it: nothing is queued for it meanwhile). 200 with the endpoint as GET shows it, and `warnings` when something was adjusted or ignored.',
		'POST /webhooks/{id}/rotate-secret gives a new signing `secret` (shown only then); the one it replaces keeps signing until `previousSecretValidUntil` (24 hours), so each delivery meanwhile carries two signatures in `webhook-signature`: a receiver verifies with either while it moves to the new one.',
		'DELETE /webhooks/{id} removes one: 204.',
		'An endpoint the firm switched off stays off until the firm switches it on again: adding the same address again, deleting it, moving it or switching it on is 409.',
	],
}
