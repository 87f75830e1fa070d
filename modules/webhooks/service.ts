/**
 * Webhook endpoints and their deliveries, for every door (pages, CLI, the vendor REST API).
 *
 * Rules:
 * - An endpoint is the workspace's (added by owners and admins, `webhooks:manage`, or the operator's
 *   CLI) or a vendor's (`vendorId`: added with its API key, limited to the `job.*` events and
 *   `submission.created`). A vendor key reaches its vendor's own. Owners and admins (and the
 *   operator's CLI) reach every endpoint of the workspace, its vendors' too: they see them and their
 *   deliveries, switch them off and on and delete them, so an endpoint added with a key that leaked
 *   is never out of the firm's sight once the key is revoked. A vendor's signing secret stays the
 *   vendor's: people do not rotate or end it (see `maySign`). Every query is scoped to the caller's
 *   workspace and, for a vendor, to the vendor: another's endpoint is "not found".
 * - The address is checked when the endpoint is added (`address.ts`) and again at each delivery; it is
 *   stored and shown in the URL parser's form (`canonicalUrl`), the address that is called.
 * - The signing secret is returned once, when it is made (adding, rotating), and stored sealed.
 * - A rotation keeps the secret it replaces signing for 24 hours, each for its own 24 hours however
 *   many rotations follow (a receiver not yet moved on keeps verifying until the promised end); at
 *   most `MAX_PREVIOUS_SECRETS` of them at once, past which a rotation is refused until one ends.
 * - A replay puts the same delivery (same `webhook-id`, same body) back in the queue, due now.
 */
import { and, desc, eq, isNotNull, isNull, ne, not, or, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, forbidden, invalid, notFound, type FieldError } from '../../core/errors.ts'
import { firstCodePoints, typedLine, type UntrustedText } from '../../core/untrusted.ts'
import type { OutboundNetwork } from '../../core/http/outbound.ts'
import { formatDateTime } from '../../core/time.ts'
import { lockUntilCommit, type Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { holdLiveKey, keysByIds, vendorNames } from '../vendors/index.ts'
import { calledUrl, canonicalUrl, endpointUrlProblem } from './address.ts'
import { newSigningSecret, sealSecret } from './secrets.ts'
import { switchedOff, switchedOn, type DisabledBy, type DisabledCause } from './switch-off.ts'
import { webhookDeliveries, webhookEndpoints, type PreviousSecret } from './table.ts'
import { SUBSCRIBABLE, TEST_EVENT, VENDOR_SUBSCRIBABLE } from './types.ts'

export const MANAGE = 'webhooks:manage' as const
/** How long a secret still signs after a rotation replaced it. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000
/**
 * Replaced secrets still signing at once: each adds a signature to every delivery, and more than a few
 * rotations within a day is a mistake or a loop, not a receiver's need.
 */
export const MAX_PREVIOUS_SECRETS = 3
export const MAX_DESCRIPTION = 200
/** How many wrong event types an answer names one by one. */
const MAX_NAMED_PROBLEMS = 5
/** Endpoints per workspace or vendor: enough for every real use, and a bound on the fan-out of one event. */
export const MAX_ENDPOINTS = 20

export interface EndpointView {
	id: string
	url: string
	description: string
	events: string[]
	enabled: boolean
	/** Why it is off, in the firm's pages' words, when something other than a person's click did it (a revoked key, Benchline's reasons). */
	disabledReason: string | null
	/** Why it is off, one of a closed set (switch-off.ts; null while on): what the Job Publish API tells the vendor. */
	disabledCause: DisabledCause | null
	vendorId: string | null
	/** The vendor's name (its own words, labelled) for a vendor's endpoint; null for the workspace's. */
	vendorName: UntrustedText | null
	/** The vendor's API key that added it or last moved it to another address (its last four characters; revoked or not), when that was kept. */
	vendorKey: { lastFour: string; revokedAt: Date | null } | null
	failingSince: Date | null
	createdAt: Date
	/** When each replaced secret stops signing, soonest first (some may have passed; never the secrets themselves). */
	previousSecretsUntil: Date[]
}

export interface DeliveryView {
	id: string
	endpointId: string
	type: string
	status: 'pending' | 'sending' | 'delivered' | 'failed'
	attempts: number
	lastStatus: number | null
	lastError: string | null
	lastAttemptAt: Date | null
	nextAttemptAt: Date | null
	deliveredAt: Date | null
	createdAt: Date
}

export interface NewEndpoint {
	url: string
	events: readonly string[]
	description?: string
}

const endpointColumns = {
	id: webhookEndpoints.id,
	url: webhookEndpoints.url,
	description: webhookEndpoints.description,
	events: webhookEndpoints.events,
	enabled: webhookEndpoints.enabled,
	disabledReason: webhookEndpoints.disabledReason,
	disabledCause: webhookEndpoints.disabledCause,
	vendorId: webhookEndpoints.vendorId,
	vendorKeyId: webhookEndpoints.vendorKeyId,
	failingSince: webhookEndpoints.failingSince,
	createdAt: webhookEndpoints.createdAt,
	// Only the ends: the sealed secrets stay in this module's queries.
	previousSecretsUntil: sql<
		string[]
	>`coalesce((select jsonb_agg(p->'until' order by p->>'until') from jsonb_array_elements(${webhookEndpoints.previousSecrets}) p), '[]'::jsonb)`,
}

type EndpointRow = Omit<EndpointView, 'previousSecretsUntil' | 'vendorName' | 'vendorKey'> & { previousSecretsUntil: string[]; vendorKeyId: string | null }

/** The rows as views, each vendor's endpoint with its vendor's name and the key that added or last moved it (one look-up each for all). */
async function endpointViews(deps: AppDeps, rows: EndpointRow[]): Promise<EndpointView[]> {
	const names = await vendorNames(
		deps,
		rows.flatMap((r) => (r.vendorId ? [r.vendorId] : [])),
	)
	const keys = await keysByIds(
		deps,
		rows.flatMap((r) => (r.vendorKeyId ? [r.vendorKeyId] : [])),
	)
	return rows.map(({ vendorKeyId, ...row }) => ({
		...row,
		vendorKey: vendorKeyId ? (keys.get(vendorKeyId) ?? null) : null,
		// Endpoints added before addresses were stored in the parser's form show it too (the one they are called at).
		url: URL.parse(row.url.trim())?.href ?? row.url,
		vendorName: row.vendorId ? (names.get(row.vendorId) ?? null) : null,
		previousSecretsUntil: row.previousSecretsUntil.map((t) => new Date(t)),
	}))
}

const isVendor = (actor: Actor) => actor.role === 'vendor'

/** People need `webhooks:manage`; a vendor key manages its own endpoints. */
function mayManage(deps: AppDeps, actor: Actor) {
	if (isVendor(actor)) {
		if (!actor.vendorId) throw forbidden('This key belongs to no vendor')
		return
	}
	if (!deps.permissions.can(actor, MANAGE)) throw forbidden('Only owners and admins manage webhooks')
}

/**
 * The endpoints the actor may see, switch off and on, and delete: a vendor key's own; for people and
 * the operator's CLI, every one of the workspace, its vendors' included.
 */
function scope(actor: Actor): SQL {
	if (isVendor(actor)) return ownEndpoints(actor)
	return eq(webhookEndpoints.workspaceId, actor.workspaceId)
}

/**
 * A vendor's signing secret is the vendor's: owners and admins do not rotate or end it (a new secret
 * would be shown to them, never to the vendor, whose receiver would then refuse every delivery).
 * They switch the endpoint off or delete it instead. The operator's CLI may (a leak).
 */
function maySign(actor: Actor, endpoint: { vendorId: string | null }) {
	if (endpoint.vendorId && !isVendor(actor) && actor.credential.kind !== 'cli')
		throw forbidden('This endpoint is a vendor’s: its signing secret is the vendor’s. Switch the endpoint off or delete it instead.')
}

/**
 * The endpoints the actor's owner holds: a vendor's own, or the workspace's own (no vendor). The limit
 * of `MAX_ENDPOINTS` counts these, for people and the operator's CLI too: they reach every endpoint of
 * the workspace, but one they add is the workspace's, and vendors' endpoints are not the workspace's to count.
 */
function ownEndpoints(actor: Actor): SQL {
	const whose = isVendor(actor) ? eq(webhookEndpoints.vendorId, actor.vendorId!) : isNull(webhookEndpoints.vendorId)
	return and(eq(webhookEndpoints.workspaceId, actor.workspaceId), whose)!
}

/** Ids are a prefix and 20 characters (`whe_…`, `msg_…`): one far longer is no id, and is not echoed whole. */
const MAX_ID_LENGTH = 160

/**
 * Whether an id as asked (a path segment, a CLI option) could name a record: text the database holds,
 * no longer than any id. One that cannot is "not found" without a query, as an unknown id is: a NUL
 * made the query fail as text that cannot be stored (a 422 that told it apart from an unknown id), and
 * a path whose percent-encoding is broken reached the service with no id at all (answered with "null").
 */
const couldBeId = (id: unknown): id is string => typeof id === 'string' && id.length <= MAX_ID_LENGTH && !id.includes('\u0000') && id.isWellFormed()

/** An id in an answer: as asked, cut when long (a path may be kilobytes); none when it was no text. */
const askedId = (id: unknown) => (typeof id !== 'string' ? 'that id' : `the id "${firstCodePoints(id.toWellFormed(), 100)}"`)

const notFoundEndpoint = (id: unknown) => notFound(`No webhook endpoint with ${askedId(id)}`)
const notFoundDelivery = (id: unknown) => notFound(`No webhook delivery with ${askedId(id)}`)

/** The event types the actor may subscribe to: a vendor, those about its own jobs; the firm, every one. */
const subscribable = (actor: Actor): readonly string[] => (isVendor(actor) ? VENDOR_SUBSCRIBABLE : SUBSCRIBABLE)

/** What is wrong with the event types: none, not text, or not ones the actor may subscribe to (a few named). */
function eventProblems(actor: Actor, events: unknown): FieldError[] {
	const out: FieldError[] = []
	const allowed = subscribable(actor)
	if (!Array.isArray(events) || !events.length) return [{ field: 'events', message: 'choose at least one event type' }]
	// Each wrong value once, and a few at most: a list of thousands made an answer of megabytes. A value
	// that is not text is said to be so, never turned into text (an object may refuse, or nest too deep).
	if (events.some((e) => typeof e !== 'string')) out.push({ field: 'events', message: 'must list event types as text' })
	const unknown = [...new Set(events.filter((e): e is string => typeof e === 'string' && !allowed.includes(e)).map((e) => e.slice(0, 60)))]
	for (const e of unknown.slice(0, MAX_NAMED_PROBLEMS))
		out.push({
			field: 'events',
			message: `"${e}" is not an event type ${isVendor(actor) ? 'a vendor may subscribe to' : 'of Benchline'}; choose from ${allowed.join(', ')}`,
		})
	if (unknown.length > MAX_NAMED_PROBLEMS)
		out.push({ field: 'events', message: `and ${unknown.length - MAX_NAMED_PROBLEMS} more values that are not event types` })
	return out
}

/**
 * What is wrong with the input, every problem at once (the address is looked up last, only when the
 * rest holds). `present`: the fields to judge (a change judges only those it sends; an add, all).
 */
async function problems(
	deps: AppDeps,
	actor: Actor,
	input: Partial<NewEndpoint>,
	network?: OutboundNetwork,
	present: ReadonlySet<keyof NewEndpoint> = new Set(['url', 'events', 'description']),
): Promise<FieldError[]> {
	const out: FieldError[] = present.has('events') ? eventProblems(actor, input.events ?? []) : []
	const description = present.has('description') ? typedLine(input.description ?? '', MAX_DESCRIPTION, { optional: true }).problem : null
	if (description) out.push({ field: 'description', message: description })
	if (!present.has('url')) return out
	const url = typeof input.url === 'string' ? input.url.trim() : ''
	const urlProblem = await endpointUrlProblem(deps, url, network)
	if (urlProblem) out.unshift({ field: 'url', message: urlProblem })
	return out
}

const switchedOffByFirm = and(eq(webhookEndpoints.enabled, false), eq(webhookEndpoints.disabledBy, 'workspace'))

const firmSwitchedItOff = (what: string) =>
	new AppError('CONFLICT', `${what}: the firm switched off your endpoint at this address, and it stays off until the firm switches it on again. Ask the firm.`)

/**
 * A firm's switch-off of a vendor's endpoint sticks (a person's, or the revocation of the key that added
 * it): the vendor may not add the same address again, which would start the deliveries the firm stopped.
 * The same address is the same request: compared as called (`calledUrl`), whatever fragment it was written with.
 * Benchline's own switch-offs (410 Gone, failing) are the vendor's to fix by adding it again.
 */
async function refuseWhatTheFirmSwitchedOff(tx: Db, actor: Actor, url: string, what = 'The endpoint was not added', except?: string) {
	const [off] = await tx
		.select({ id: webhookEndpoints.id })
		.from(webhookEndpoints)
		.where(
			and(ownEndpoints(actor), eq(calledUrl(sql`${webhookEndpoints.url}`), url), switchedOffByFirm, except ? not(eq(webhookEndpoints.id, except)) : undefined),
		)
		.limit(1)
	if (off) throw firmSwitchedItOff(`${what} (${off.id} is at the same address)`)
}

/** Adds an endpoint; returns it and its signing secret (the only time the secret is given out). */
export async function addEndpoint(
	deps: AppDeps,
	actor: Actor,
	input: NewEndpoint,
	options: { network?: OutboundNetwork } = {},
): Promise<{ endpoint: EndpointView; secret: string; warnings: string[] }> {
	mayManage(deps, actor)
	const listed = eventsAsListed(actor, input.events)
	// Values that are not text stay as sent: `problems` names them.
	const fields = await problems(deps, actor, { ...input, events: listed.events as string[] }, options.network)
	if (fields.length) throw invalid(fields, `The endpoint was not added: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`)
	const id = newId('whe')
	const secret = newSigningSecret()
	const events = [...new Set(listed.events as string[])]
	const endpoint = await deps.db.transaction(async (tx) => {
		// One add at a time per workspace or vendor: two at once would both count 19 and make 21.
		await lockUntilCommit(tx, `webhook_endpoints:${actor.workspaceId}:${isVendor(actor) ? actor.vendorId : ''}`)
		const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints).where(ownEndpoints(actor))
		if (Number(count?.n ?? 0) >= MAX_ENDPOINTS) throw new AppError('CONFLICT', `At most ${MAX_ENDPOINTS} webhook endpoints; delete one first`)
		// The key that adds it is live until this commits: a revocation at this moment switches it off too.
		if (isVendor(actor) && actor.credential.kind === 'vendor_key' && !(await holdLiveKey(tx, actor.credential.id)))
			throw new AppError('UNAUTHORIZED', 'This API key was revoked')
		if (isVendor(actor)) await refuseWhatTheFirmSwitchedOff(tx, actor, canonicalUrl(input.url))
		const [row] = await tx
			.insert(webhookEndpoints)
			.values({
				id,
				workspaceId: actor.workspaceId,
				vendorId: isVendor(actor) ? actor.vendorId : null,
				vendorKeyId: isVendor(actor) && actor.credential.kind === 'vendor_key' ? actor.credential.id : null,
				url: canonicalUrl(input.url),
				description: typedLine(input.description ?? '', MAX_DESCRIPTION, { optional: true }).line,
				events,
				secretSealed: await sealSecret(deps.secret, id, secret),
			})
			.returning(endpointColumns)
		await recordActivity(tx, actor, { action: 'webhook.endpoint_added', targetType: 'webhook_endpoint', targetId: id, detail: { events } })
		return row!
	})
	return { endpoint: (await endpointViews(deps, [endpoint]))[0]!, secret, warnings: listed.warnings }
}

/**
 * Event types sent in another case or with spaces around (`JOB.PUBLISHED`) taken as listed
 * (`job.published`), each with a warning saying so, as the Job Publish API takes its choices; anything
 * else is left for `problems` to name.
 */
function eventsAsListed(actor: Actor, sent: readonly unknown[] | undefined): { events: unknown[]; warnings: string[] } {
	if (!Array.isArray(sent)) return { events: [], warnings: [] }
	const allowed = subscribable(actor)
	const warnings = new Set<string>()
	const events = sent.map((e) => {
		if (typeof e !== 'string' || allowed.includes(e)) return e
		const taken = e.trim().toLowerCase()
		if (!allowed.includes(taken)) return e
		warnings.add(`events "${firstCodePoints(e, 60)}" was stored as "${taken}", its listed spelling`)
		return taken
	})
	return { events, warnings: [...warnings].slice(0, MAX_NAMED_PROBLEMS) }
}

export async function listEndpoints(deps: AppDeps, actor: Actor): Promise<EndpointView[]> {
	mayManage(deps, actor)
	const rows = await deps.db.select(endpointColumns).from(webhookEndpoints).where(scope(actor)).orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
	return endpointViews(deps, rows)
}

export async function getEndpoint(deps: AppDeps, actor: Actor, id: string, db: Db = deps.db): Promise<EndpointView> {
	mayManage(deps, actor)
	if (!couldBeId(id)) throw notFoundEndpoint(id)
	const [row] = await db
		.select(endpointColumns)
		.from(webhookEndpoints)
		.where(and(eq(webhookEndpoints.id, id), scope(actor)))
	if (!row) throw notFoundEndpoint(id)
	return (await endpointViews(deps, [row]))[0]!
}

/** Whether the endpoint is one `actor` reaches (the workspace's, or the vendor's own). */
async function inScope(tx: Db, actor: Actor, id: string): Promise<boolean> {
	const [row] = await tx
		.select({ id: webhookEndpoints.id })
		.from(webhookEndpoints)
		.where(and(eq(webhookEndpoints.id, id), scope(actor)))
	return row !== undefined
}

/**
 * Deletes an endpoint and its delivery log. A vendor may not delete one the firm switched off: deleting
 * it and adding the address again would undo the firm's switch-off (the firm deletes it, or switches it on).
 */
export async function removeEndpoint(deps: AppDeps, actor: Actor, id: string): Promise<void> {
	mayManage(deps, actor)
	if (!couldBeId(id)) throw notFoundEndpoint(id)
	await deps.db.transaction(async (tx) => {
		// A vendor's delete leaves an endpoint the firm switched off, in the one statement (a switch-off
		// committed while it waited for the row is seen): locked with addEndpoint besides.
		if (isVendor(actor)) await lockUntilCommit(tx, `webhook_endpoints:${actor.workspaceId}:${actor.vendorId}`)
		const gone = await tx
			.delete(webhookEndpoints)
			.where(and(eq(webhookEndpoints.id, id), scope(actor), isVendor(actor) ? not(switchedOffByFirm!) : undefined))
			.returning({ id: webhookEndpoints.id })
		// Nothing deleted: a vendor's endpoint the firm switched off, or none in reach.
		if (!gone.length) throw (await inScope(tx, actor, id)) ? firmSwitchedItOff('The endpoint was not deleted') : notFoundEndpoint(id)
		await recordActivity(tx, actor, { action: 'webhook.endpoint_removed', targetType: 'webhook_endpoint', targetId: id })
	})
}

/**
 * Switches an endpoint on or off. Switching on clears who switched it off, the reason and its failing
 * time; what waits is delivered, due from now (it was not waiting for the workers while the endpoint
 * was off: the queue's age on `/metrics` starts at 0, as for a replay). Switching off is the
 * workspace's decision (`disabledBy`); one the firm switched off stays as it is, with its reason (a
 * revoked key), and so does the workspace's own endpoint Benchline switched off (no vendor can switch
 * it on). A vendor's endpoint off by the vendor's pause or by Benchline (410, failing), which the vendor
 * may switch on again, becomes the firm's switch-off (`firmMayTakeOver`).
 * People and the operator only: a vendor deletes its endpoint or adds one, and never switches on one
 * the firm switched off.
 */
export async function setEndpointEnabled(deps: AppDeps, actor: Actor, id: string, enabled: boolean): Promise<void> {
	mayManage(deps, actor)
	if (isVendor(actor)) throw forbidden('The firm switches endpoints off and on; a vendor deletes its endpoint or adds one')
	if (!couldBeId(id)) throw notFoundEndpoint(id)
	await deps.db.transaction(async (tx) => {
		// A vendor's pause, or Benchline's switch-off of a vendor's endpoint, becomes the firm's, which the vendor cannot undo.
		const e = webhookEndpoints
		const asked = enabled ? eq(e.enabled, false) : or(eq(e.enabled, true), and(isNotNull(e.vendorId), ne(e.disabledBy, 'workspace')))
		const changed = await tx
			.update(webhookEndpoints)
			.set(enabled ? { ...switchedOn, ...NO_FAILURES } : switchedOff('switched_off_by_firm'))
			.where(and(eq(webhookEndpoints.id, id), scope(actor), asked))
			.returning({ id: webhookEndpoints.id })
		if (!changed.length) {
			// Already as asked: nothing changes and nothing is logged (a second click, a reload).
			if (!(await inScope(tx, actor, id))) throw notFoundEndpoint(id)
			return
		}
		if (enabled) await dueFromNow(deps, tx, id)
		await recordActivity(tx, actor, {
			action: enabled ? 'webhook.endpoint_enabled' : 'webhook.endpoint_disabled',
			targetType: 'webhook_endpoint',
			targetId: id,
		})
	})
}

/** What a change sends: only the fields present change (`enabled`: switch on, or pause). */
export interface EndpointChange {
	url?: string
	events?: readonly unknown[]
	/** null or '' is no description. */
	description?: string | null
	enabled?: boolean
}

/** The fields of a change that are the endpoint's settings, as an add takes them. */
const SETTINGS = ['url', 'events', 'description'] as const

/**
 * Changes an endpoint in place, its signing secret kept: its address, event types and description
 * (judged as an add judges them, only those sent), and `enabled` (true switches on one that is off and
 * clears its failures; false pauses it: nothing is queued for it meanwhile). The endpoint's owner
 * changes it: a vendor its own, people the workspace's (a vendor's endpoint is the vendor's to change;
 * people switch it off, on, or delete it). A vendor may not switch on, nor move, an endpoint the firm
 * switched off, nor switch on or move one to an address the firm switched off (409, as adding it is).
 */
export async function changeEndpoint(
	deps: AppDeps,
	actor: Actor,
	id: string,
	change: EndpointChange,
	options: { network?: OutboundNetwork } = {},
): Promise<{ endpoint: EndpointView; warnings: string[] }> {
	// Not found before invalid (the API's precedence), and before the address is looked up.
	await getEndpoint(deps, actor, id)
	const listed = change.events === undefined ? { events: undefined, warnings: [] } : eventsAsListed(actor, change.events)
	const present = new Set(SETTINGS.filter((f) => change[f] !== undefined))
	const input = { url: change.url, events: listed.events as string[] | undefined, description: change.description ?? '' }
	const fields = await problems(deps, actor, input, options.network, present)
	if (fields.length) throw invalid(fields, `The endpoint was not changed: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`)
	await deps.db.transaction(async (tx) => {
		// With adds and deletes: a firm's switch-off committed meanwhile is seen.
		if (isVendor(actor)) await lockUntilCommit(tx, `webhook_endpoints:${actor.workspaceId}:${actor.vendorId}`)
		const [row] = await tx
			.select({
				url: webhookEndpoints.url,
				events: webhookEndpoints.events,
				description: webhookEndpoints.description,
				enabled: webhookEndpoints.enabled,
				disabledBy: webhookEndpoints.disabledBy,
				vendorId: webhookEndpoints.vendorId,
			})
			.from(webhookEndpoints)
			.where(and(eq(webhookEndpoints.id, id), scope(actor)))
			.for('update')
		if (!row) throw notFoundEndpoint(id)
		if (row.vendorId && !isVendor(actor)) throw forbidden('This endpoint is a vendor’s: the vendor changes it. Switch it off or on, or delete it, instead.')
		const next = {
			url: input.url === undefined ? row.url : canonicalUrl(input.url),
			events: input.events === undefined ? row.events : [...new Set(input.events)],
			description: change.description === undefined ? row.description : typedLine(change.description ?? '', MAX_DESCRIPTION, { optional: true }).line,
		}
		await mayChange(tx, actor, id, row, next.url, change.enabled === true && !row.enabled)
		await applyChange(deps, tx, actor, id, row, next, change.enabled)
	})
	return { endpoint: await getEndpoint(deps, actor, id), warnings: listed.warnings }
}

interface EndpointNow {
	url: string
	events: string[]
	description: string
	enabled: boolean
	disabledBy: DisabledBy | null
}

/**
 * A vendor's change may not undo the firm's switch-off: moving or switching on the endpoint the firm
 * switched off, or pointing one at an address the firm switched off. A key revoked at this moment
 * switches off what it moves or switches on (the key is held live until commit, as an add holds it).
 */
async function mayChange(tx: Db, actor: Actor, id: string, row: EndpointNow, nextUrl: string, switchesOn: boolean) {
	const moves = nextUrl !== row.url
	if (!isVendor(actor) || !(moves || switchesOn)) return
	if (!row.enabled && row.disabledBy === 'workspace') throw firmSwitchedItOff('The endpoint was not changed')
	await refuseWhatTheFirmSwitchedOff(tx, actor, nextUrl, 'The endpoint was not changed', id)
	if (actor.credential.kind === 'vendor_key' && !(await holdLiveKey(tx, actor.credential.id))) throw new AppError('UNAUTHORIZED', 'This API key was revoked')
}

/**
 * The key an endpoint is counted as set up by, once a vendor's key moves it: the address is that key's
 * choice now, so revoking that key (a leak) switches the endpoint off (key-revocation.ts), even when
 * another key added it.
 */
const movedBy = (actor: Actor) => (isVendor(actor) && actor.credential.kind === 'vendor_key' ? { vendorKeyId: actor.credential.id } : {})

type Settings = Pick<EndpointNow, (typeof SETTINGS)[number]>

/**
 * Writes what differs from the endpoint as it is, and records it: a change of settings (with the
 * address it moved from and to: where the firm's data goes), a switch-on, a pause. Nothing differs:
 * nothing is written or recorded (a change sent twice).
 */
async function applyChange(deps: AppDeps, tx: Db, actor: Actor, id: string, row: EndpointNow, next: Settings, enabled: boolean | undefined) {
	const changed = SETTINGS.filter((f) => JSON.stringify(next[f]) !== JSON.stringify(row[f]))
	const moves = next.url !== row.url
	const switchesOn = enabled === true && !row.enabled
	const pauses = enabled === false && row.enabled
	if (!changed.length && !switchesOn && !pauses) return
	await tx
		.update(webhookEndpoints)
		.set({
			...Object.fromEntries(changed.map((f) => [f, next[f]])),
			// A run of failures was the old address's: the new one starts with none.
			...(moves || switchesOn ? NO_FAILURES : {}),
			...(moves ? movedBy(actor) : {}),
			...(switchesOn ? switchedOn : {}),
			...(pauses ? switchedOff(isVendor(actor) ? 'paused_by_vendor' : 'switched_off_by_firm') : {}),
		})
		.where(eq(webhookEndpoints.id, id))
	if (switchesOn) await dueFromNow(deps, tx, id)
	const target = { targetType: 'webhook_endpoint', targetId: id } as const
	if (changed.length)
		await recordActivity(tx, actor, {
			action: 'webhook.endpoint_changed',
			...target,
			detail: { changed, ...(moves ? { from: row.url, to: next.url } : {}), ...(changed.includes('events') ? { events: next.events } : {}) },
		})
	if (switchesOn || pauses) await recordActivity(tx, actor, { action: switchesOn ? 'webhook.endpoint_enabled' : 'webhook.endpoint_disabled', ...target })
}

/** A switch-on starts afresh: the run of failures that switched it off (or came before) is over. */
const NO_FAILURES = { failingSince: null, lastFailureAt: null } as const

/**
 * What waits for a switched-on endpoint is due from now: it was not waiting for the workers while the
 * endpoint was off (the queue's age on `/metrics` starts at 0, as for a replay).
 */
async function dueFromNow(deps: AppDeps, tx: Db, id: string) {
	await tx
		.update(webhookDeliveries)
		.set({ nextAttemptAt: sql`greatest(${webhookDeliveries.nextAttemptAt}, ${deps.now().toISOString()}::timestamptz)` })
		.where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')))
}

/** The replaced secrets that still sign at `now` (an ended one is dropped: it never signs again). */
export const liveSecrets = (previous: readonly PreviousSecret[], now: Date) => previous.filter((p) => new Date(p.until) > now)

/**
 * The refusal of a rotation past the cap, naming when the soonest of the replaced secrets stops
 * signing (a rotation is possible again then).
 */
function tooManyRotations(live: readonly PreviousSecret[]): AppError {
	const soonest = live.map((p) => p.until).sort()[0]
	return new AppError(
		'CONFLICT',
		`The secret was not rotated: ${MAX_PREVIOUS_SECRETS} earlier secrets still sign beside the current one, the most kept at once. Rotate again after ${formatDateTime(new Date(soonest!))}, when the oldest stops signing.`,
	)
}

/**
 * A new signing secret (returned once). The current one joins the replaced secrets, signing beside
 * the new one for 24 hours; those replaced earlier keep their own end. Refused (409) while
 * `MAX_PREVIOUS_SECRETS` replaced secrets still sign.
 */
export async function rotateSecret(deps: AppDeps, actor: Actor, id: string): Promise<{ secret: string; previousValidUntil: Date }> {
	mayManage(deps, actor)
	if (!couldBeId(id)) throw notFoundEndpoint(id)
	const secret = newSigningSecret()
	const sealed = await sealSecret(deps.secret, id, secret)
	const now = deps.now()
	const until = new Date(now.getTime() + ROTATION_OVERLAP_MS)
	await deps.db.transaction(async (tx) => {
		// Locked: two rotations at once would each keep the list they read, and one replaced secret would be lost.
		const [row] = await tx
			.select({ current: webhookEndpoints.secretSealed, previous: webhookEndpoints.previousSecrets, vendorId: webhookEndpoints.vendorId })
			.from(webhookEndpoints)
			.where(and(eq(webhookEndpoints.id, id), scope(actor)))
			.for('update')
		if (!row) throw notFoundEndpoint(id)
		maySign(actor, row)
		const live = liveSecrets(row.previous, now)
		if (live.length >= MAX_PREVIOUS_SECRETS) throw tooManyRotations(live)
		await tx
			.update(webhookEndpoints)
			.set({ previousSecrets: [...live, { sealed: row.current, until: until.toISOString() }], secretSealed: sealed })
			.where(eq(webhookEndpoints.id, id))
		await recordActivity(tx, actor, { action: 'webhook.secret_rotated', targetType: 'webhook_endpoint', targetId: id })
	})
	return { secret, previousValidUntil: until }
}

/**
 * Ends every replaced secret at once (a leaked secret is cut now, not at the end of its 24 hours, and
 * a rotation is possible again at once): only the current secret signs from here on. The receiver
 * must hold the current secret already; the page says so before asking.
 */
export async function endPreviousSecrets(deps: AppDeps, actor: Actor, id: string): Promise<{ ended: number }> {
	mayManage(deps, actor)
	if (!couldBeId(id)) throw notFoundEndpoint(id)
	return deps.db.transaction(async (tx) => {
		// Locked with rotateSecret: a rotation at the same moment either ends with the list or after it.
		const [row] = await tx
			.select({ previous: webhookEndpoints.previousSecrets, vendorId: webhookEndpoints.vendorId })
			.from(webhookEndpoints)
			.where(and(eq(webhookEndpoints.id, id), scope(actor)))
			.for('update')
		if (!row) throw notFoundEndpoint(id)
		maySign(actor, row)
		const ended = liveSecrets(row.previous, deps.now()).length
		await tx.update(webhookEndpoints).set({ previousSecrets: [] }).where(eq(webhookEndpoints.id, id))
		if (ended) await recordActivity(tx, actor, { action: 'webhook.previous_secrets_ended', targetType: 'webhook_endpoint', targetId: id })
		return { ended }
	})
}

/** Queues a `webhook.test` delivery to this endpoint (even when it is off: it waits until it is switched on). */
export async function sendTestEvent(deps: AppDeps, actor: Actor, id: string): Promise<{ deliveryId: string }> {
	mayManage(deps, actor)
	const endpoint = await getEndpoint(deps, actor, id)
	const deliveryId = newId('msg')
	const now = deps.now()
	const body = JSON.stringify({ type: TEST_EVENT, timestamp: now.toISOString(), data: { endpointId: endpoint.id } })
	await deps.db.insert(webhookDeliveries).values({
		id: deliveryId,
		endpointId: endpoint.id,
		workspaceId: actor.workspaceId,
		eventId: null,
		type: TEST_EVENT,
		body,
		createdAt: now,
		nextAttemptAt: now,
	})
	return { deliveryId }
}

const deliveryColumns = {
	id: webhookDeliveries.id,
	endpointId: webhookDeliveries.endpointId,
	type: webhookDeliveries.type,
	status: webhookDeliveries.status,
	attempts: webhookDeliveries.attempts,
	lastStatus: webhookDeliveries.lastStatus,
	lastError: webhookDeliveries.lastError,
	lastAttemptAt: webhookDeliveries.lastAttemptAt,
	nextAttemptAt: webhookDeliveries.nextAttemptAt,
	deliveredAt: webhookDeliveries.deliveredAt,
	createdAt: webhookDeliveries.createdAt,
}

function view(row: Omit<DeliveryView, 'status'> & { status: string }): DeliveryView {
	const status = row.status as DeliveryView['status']
	return { ...row, status, nextAttemptAt: status === 'pending' || status === 'sending' ? row.nextAttemptAt : null }
}

/** The endpoint's newest deliveries, newest first. */
export async function deliveryLog(deps: AppDeps, actor: Actor, endpointId: string, limit = 50): Promise<DeliveryView[]> {
	await getEndpoint(deps, actor, endpointId)
	const rows = await deps.db
		.select(deliveryColumns)
		.from(webhookDeliveries)
		.where(eq(webhookDeliveries.endpointId, endpointId))
		.orderBy(desc(webhookDeliveries.seq))
		.limit(limit)
	return rows.map(view)
}

/** Puts a delivery back in the queue, due now, with the same `webhook-id` and body. */
export async function replayDelivery(deps: AppDeps, actor: Actor, deliveryId: string): Promise<DeliveryView> {
	mayManage(deps, actor)
	if (!couldBeId(deliveryId)) throw notFoundDelivery(deliveryId)
	return deps.db.transaction(async (tx) => {
		const [row] = await tx
			.update(webhookDeliveries)
			// A fresh schedule: a replay after an outage is of deliveries that used theirs up, and got one attempt.
			.set({ status: 'pending', attempts: 0, nextAttemptAt: deps.now(), deliveredAt: null })
			.where(
				and(
					eq(webhookDeliveries.id, deliveryId),
					sql`${webhookDeliveries.status} <> 'sending'`,
					sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.id} = ${webhookDeliveries.endpointId} and ${scope(actor)})`,
				),
			)
			.returning(deliveryColumns)
		if (!row) {
			const [exists] = await tx
				.select({ status: webhookDeliveries.status })
				.from(webhookDeliveries)
				.innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
				.where(and(eq(webhookDeliveries.id, deliveryId), scope(actor)))
			if (exists) throw new AppError('CONFLICT', 'This delivery is being sent right now; replay it once the attempt has ended')
			throw notFoundDelivery(deliveryId)
		}
		await recordActivity(tx, actor, { action: 'webhook.delivery_replayed', targetType: 'webhook_endpoint', targetId: row.endpointId, detail: { deliveryId } })
		return view(row)
	})
}

/** The workspace of an endpoint or delivery found by id alone (the operator's CLI acts in it). */
export async function workspaceOfEndpoint(deps: AppDeps, endpointId: string): Promise<{ workspaceId: string; vendorId: string | null } | null> {
	if (!couldBeId(endpointId)) return null
	const [row] = await deps.db
		.select({ workspaceId: webhookEndpoints.workspaceId, vendorId: webhookEndpoints.vendorId })
		.from(webhookEndpoints)
		.where(eq(webhookEndpoints.id, endpointId))
	return row ?? null
}

export async function endpointOfDelivery(deps: AppDeps, deliveryId: string): Promise<string | null> {
	if (!couldBeId(deliveryId)) return null
	const [row] = await deps.db.select({ endpointId: webhookDeliveries.endpointId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId))
	return row?.endpointId ?? null
}
