/**
 * Vendors and their API keys.
 *
 * Rules: a key belongs to one vendor and reaches only that vendor's jobs; keys are shown once and
 * stored as SHA-256; a revoked key is 401 on its next request; a vendor whose API access is off
 * gets 403 with any of its keys; a vendor may hold several live keys (rotation).
 * Seeing a vendor's keys, creating and revoking them and switching API access need `vendors:keys`
 * (owners and admins; the operator's CLI acts as an owner); each change is in the activity log.
 * A key's last use is kept to the minute, off the request's path.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { credentialType, hashSecret, newCredential, newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { typedLine, untrustedLine, type UntrustedText } from '../../core/untrusted.ts'
import { AppError, forbidden, invalid } from '../../core/errors.ts'
import { noteUse } from '../../core/last-used.ts'
import { contributionsTo } from '../../core/registry.ts'
import { compile, type Db } from '../../db/client.ts'
import { recordActivity, type ActorSql } from '../activity/index.ts'
import { workspaceSlugOf } from '../auth/index.ts'
import { keyRevocation } from './port.ts'
import { vendorApiKeys, vendors } from './table.ts'

export interface NewKey {
	keyId: string
	apiKey: string
}

async function insertKey(db: AppDeps['db'], vendorId: string): Promise<NewKey> {
	const apiKey = newCredential('vk')
	const keyId = newId('vk')
	await db.insert(vendorApiKeys).values({ id: keyId, vendorId, keyHash: hashSecret(apiKey), lastFour: apiKey.slice(-4) })
	return { keyId, apiKey }
}

export async function createVendor(deps: AppDeps, actor: Actor, input: { name: string }): Promise<{ vendorId: string } & NewKey> {
	const { line: name, problem } = typedLine(input.name, 120)
	if (problem) throw invalid([{ field: 'name', message: problem }])
	return deps.db.transaction(async (tx) => {
		const vendorId = newId('ven')
		await tx.insert(vendors).values({ id: vendorId, workspaceId: actor.workspaceId, name })
		const key = await insertKey(tx, vendorId)
		await recordActivity(tx, actor, { action: 'vendor.created', targetType: 'vendor', targetId: vendorId, detail: { name } })
		await recordActivity(tx, actor, { action: 'vendor.key_created', targetType: 'vendor', targetId: vendorId, detail: { keyId: key.keyId } })
		return { vendorId, ...key }
	})
}

async function vendorInWorkspace(deps: AppDeps, vendorId: string) {
	const [row] = await deps.db
		.select({ id: vendors.id, workspaceId: vendors.workspaceId, slug: workspaceSlugOf(sql`${vendors.workspaceId}`), name: vendors.name })
		.from(vendors)
		.where(eq(vendors.id, vendorId))
	if (!row) throw new AppError('NOT_FOUND', `No vendor with the id "${vendorId}"`)
	return row
}

/** Operator commands find the vendor's workspace from the vendor id. */
export async function vendorWorkspace(deps: AppDeps, vendorId: string) {
	const v = await vendorInWorkspace(deps, vendorId)
	return { id: v.workspaceId, slug: v.slug }
}

export const KEYS_PERMISSION = 'vendors:keys' as const

function mayManageKeys(deps: AppDeps, actor: Actor) {
	if (!deps.permissions.can(actor, KEYS_PERMISSION)) throw forbidden('Only owners and admins manage vendors’ API keys and API access')
}

export async function createKey(deps: AppDeps, actor: Actor, vendorId: string): Promise<NewKey> {
	mayManageKeys(deps, actor)
	const vendor = await vendorInWorkspace(deps, vendorId)
	if (vendor.workspaceId !== actor.workspaceId) throw new AppError('NOT_FOUND', `No vendor with the id "${vendorId}"`)
	return deps.db.transaction(async (tx) => {
		const key = await insertKey(tx, vendorId)
		await recordActivity(tx, actor, { action: 'vendor.key_created', targetType: 'vendor', targetId: vendorId, detail: { keyId: key.keyId } })
		return key
	})
}

/** What a revocation switched off besides the key: ids by kind (`keyRevocation` listeners' names), e.g. `webhookEndpoints`. */
export type SwitchedOff = Record<string, string[]>

export interface Revoked {
	keyId: string
	vendorId: string
	switchedOff: SwitchedOff
}

/** Revokes a key found by its id alone (the operator's CLI, which acts in the key's workspace). */
export async function revokeKey(deps: AppDeps, keyId: string, actorFor: (ws: { id: string; slug: string }) => Actor): Promise<Revoked> {
	const [key] = await deps.db.select({ vendorId: vendorApiKeys.vendorId }).from(vendorApiKeys).where(eq(vendorApiKeys.id, keyId))
	if (!key) throw new AppError('NOT_FOUND', `No API key with the id "${keyId}"`)
	return revoke(deps, actorFor(await vendorWorkspace(deps, key.vendorId)), key.vendorId, keyId)
}

/** Revokes one of a vendor's keys (the vendor's page); a key of another vendor or workspace is not found. */
export async function revokeVendorKey(deps: AppDeps, actor: Actor, vendorId: string, keyId: string): Promise<Revoked> {
	const vendor = await vendorInWorkspace(deps, vendorId)
	if (vendor.workspaceId !== actor.workspaceId) throw new AppError('NOT_FOUND', `No vendor with the id "${vendorId}"`)
	return revoke(deps, actor, vendorId, keyId)
}

/**
 * Whether the key is still live, held so until the caller's transaction ends (`for share`): a
 * revocation, which locks the key for update, waits for the caller, and its listeners then see what
 * the caller wrote (a webhook endpoint the key added at that moment is switched off with the rest);
 * a caller that comes after the revocation sees it revoked.
 */
export async function holdLiveKey(tx: Db, keyId: string): Promise<boolean> {
	const [key] = await tx.select({ revokedAt: vendorApiKeys.revokedAt }).from(vendorApiKeys).where(eq(vendorApiKeys.id, keyId)).for('share')
	return Boolean(key && !key.revokedAt)
}

/**
 * The one revocation of every door: the key stops working and, in the same transaction, what it set
 * up that sends data out is switched off (`keyRevocation`: its webhook endpoints), so a leaked key
 * leaves nothing behind that still receives the firm's data.
 */
async function revoke(deps: AppDeps, actor: Actor, vendorId: string, keyId: string): Promise<Revoked> {
	mayManageKeys(deps, actor)
	const switchedOff: SwitchedOff = {}
	await deps.db.transaction(async (tx) => {
		const [key] = await tx
			.select({ revokedAt: vendorApiKeys.revokedAt, lastFour: vendorApiKeys.lastFour, createdAt: vendorApiKeys.createdAt })
			.from(vendorApiKeys)
			.where(and(eq(vendorApiKeys.id, keyId), eq(vendorApiKeys.vendorId, vendorId)))
			.for('update')
		if (!key) throw new AppError('NOT_FOUND', `No API key with the id "${keyId}"`)
		// Revoking a revoked key changes nothing and logs nothing (a second click, a reload).
		if (key.revokedAt) return
		await tx.update(vendorApiKeys).set({ revokedAt: deps.now() }).where(eq(vendorApiKeys.id, keyId))
		await recordActivity(tx, actor, { action: 'vendor.key_revoked', targetType: 'vendor', targetId: vendorId, detail: { keyId } })
		for (const listener of contributionsTo(deps.registry, keyRevocation)) {
			const ids = await listener.revoked(deps, tx, actor, { vendorId, keyId, lastFour: key.lastFour, createdAt: key.createdAt })
			if (ids.length) switchedOff[listener.name] = ids
		}
	})
	return { keyId, vendorId, switchedOff }
}

export interface VendorKeyView {
	id: string
	/** The key's last four characters (the key itself is never kept). */
	lastFour: string
	createdAt: Date
	lastUsedAt: Date | null
	revokedAt: Date | null
}

/** A vendor's keys, newest first (live and revoked; never the key). */
export async function vendorKeys(deps: AppDeps, actor: Actor, vendorId: string): Promise<VendorKeyView[]> {
	mayManageKeys(deps, actor)
	const vendor = await vendorInWorkspace(deps, vendorId)
	if (vendor.workspaceId !== actor.workspaceId) throw new AppError('NOT_FOUND', `No vendor with the id "${vendorId}"`)
	return deps.db
		.select({
			id: vendorApiKeys.id,
			lastFour: vendorApiKeys.lastFour,
			createdAt: vendorApiKeys.createdAt,
			lastUsedAt: vendorApiKeys.lastUsedAt,
			revokedAt: vendorApiKeys.revokedAt,
		})
		.from(vendorApiKeys)
		.where(eq(vendorApiKeys.vendorId, vendorId))
		.orderBy(desc(vendorApiKeys.createdAt), desc(vendorApiKeys.id))
		.limit(MAX_KEYS_SHOWN)
}

/** More keys than anyone rotates through; the page says when there are more. */
export const MAX_KEYS_SHOWN = 100

/** Of these vendors, those whose API access is switched off: their keys get 403 and their webhook endpoints nothing. */
export async function vendorsCutOff(db: Db, vendorIds: readonly string[]): Promise<Set<string>> {
	if (!vendorIds.length) return new Set()
	const rows = await db
		.select({ id: vendors.id })
		.from(vendors)
		.where(and(inArray(vendors.id, [...new Set(vendorIds)]), eq(vendors.apiAccess, false)))
	return new Set(rows.map((r) => r.id))
}

export async function setApiAccess(deps: AppDeps, actor: Actor, vendorId: string, on: boolean): Promise<void> {
	mayManageKeys(deps, actor)
	await deps.db.transaction(async (tx) => {
		const updated = await tx
			.update(vendors)
			.set({ apiAccess: on })
			.where(and(eq(vendors.id, vendorId), eq(vendors.workspaceId, actor.workspaceId)))
			.returning({ id: vendors.id })
		if (!updated.length) throw new AppError('NOT_FOUND', `No vendor with the id "${vendorId}"`)
		await recordActivity(tx, actor, { action: on ? 'vendor.api_access_on' : 'vendor.api_access_off', targetType: 'vendor', targetId: vendorId })
	})
}

/**
 * The live key with this hash, its vendor and workspace: one definition for the per-request check
 * (`verifyVendorKey`) and for statements that fold the check into their own round trip (publish).
 */
export function vendorKeySql(hash: SQL): SQL {
	return sql`select vk.id as key_id, vk.last_used_at as key_last_used_at, v.id as vendor_id, v.name as vendor_name, v.api_access, v.workspace_id, ${workspaceSlugOf(sql`v.workspace_id`)} as workspace_slug, 'API key …' || vk.last_four as credential_name
	from ${vendorApiKeys} vk join ${vendors} v on v.id = vk.vendor_id
	where vk.key_hash = ${hash} and vk.revoked_at is null`
}

/** A row of `vendorKeySql`. */
interface VendorKeyRow {
	key_id: string
	key_last_used_at: Date | string | null
	vendor_id: string
	vendor_name: string
	api_access: boolean
	workspace_id: string
	workspace_slug: string
	credential_name: string
}

/** The activity log's actor columns for the key of `vendorKeySql`, as SQL over its alias. */
export function vendorKeyActorSql(alias: string): ActorSql {
	const c = (column: keyof VendorKeyRow) => sql.raw(`${alias}.${column}`)
	return {
		workspaceId: c('workspace_id'),
		actorUserId: sql`null`,
		actorVendorId: c('vendor_id'),
		actorName: c('vendor_name'),
		credentialKind: sql.raw(`'${VENDOR_KEY}'`),
		credentialId: c('key_id'),
		credentialName: c('credential_name'),
	}
}

const VENDOR_KEY = 'vendor_key'
const keyLookup = compile(vendorKeySql(sql`${sql.placeholder('hash')}`))

export const apiAccessOff = () => new AppError('FORBIDDEN', 'API access is switched off for this vendor; ask the service operator to switch it on')

/** The vendor actor behind an API key; null when unknown or revoked; 403 when API access is off. */
export async function verifyVendorKey(deps: AppDeps, token: string): Promise<Actor | null> {
	if (credentialType(token) !== 'vk') return null
	const [row] = await deps.database.run<VendorKeyRow>(keyLookup, { hash: hashSecret(token) })
	if (!row) return null
	if (!row.api_access) throw apiAccessOff()
	noteKeyUse(deps, row.key_id, row.key_last_used_at)
	return vendorActor(row)
}

/**
 * Records that a key was used (kept to the minute, off the request's path): `vendor list` shows it.
 * The publish statement looks its key up itself and calls this with what it found.
 */
export function noteKeyUse(deps: AppDeps, keyId: string, lastUsedAt: Date | string | null): void {
	noteUse(deps, lastUsedAt === null ? null : new Date(lastUsedAt), (now) =>
		deps.db.update(vendorApiKeys).set({ lastUsedAt: now }).where(eq(vendorApiKeys.id, keyId)),
	)
}

export interface VendorWithKeys {
	vendorId: string
	name: string
	apiAccess: boolean
	/** Every key the vendor was given, newest first; never the key itself (only its SHA-256 is stored). */
	keys: { keyId: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }[]
}

/** The workspace's vendors with their keys, by name (the operator's `vendor list`). */
export async function vendorsWithKeys(deps: AppDeps, workspaceId: string): Promise<VendorWithKeys[]> {
	const rows = await deps.db
		.select({
			vendorId: vendors.id,
			name: vendors.name,
			apiAccess: vendors.apiAccess,
			keyId: vendorApiKeys.id,
			createdAt: vendorApiKeys.createdAt,
			lastUsedAt: vendorApiKeys.lastUsedAt,
			revokedAt: vendorApiKeys.revokedAt,
		})
		.from(vendors)
		.leftJoin(vendorApiKeys, eq(vendorApiKeys.vendorId, vendors.id))
		.where(eq(vendors.workspaceId, workspaceId))
		.orderBy(asc(vendors.name), asc(vendors.id), desc(vendorApiKeys.createdAt), asc(vendorApiKeys.id))
	const out = new Map<string, VendorWithKeys>()
	for (const r of rows) {
		const v = out.get(r.vendorId) ?? { vendorId: r.vendorId, name: r.name, apiAccess: r.apiAccess, keys: [] }
		out.set(r.vendorId, v)
		if (r.keyId) v.keys.push({ keyId: r.keyId, createdAt: r.createdAt!, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt })
	}
	return [...out.values()]
}

function vendorActor(row: VendorKeyRow): Actor {
	return {
		workspaceId: row.workspace_id,
		workspaceSlug: row.workspace_slug,
		role: 'vendor',
		userId: null,
		vendorId: row.vendor_id,
		name: row.vendor_name,
		credential: { kind: VENDOR_KEY, id: row.key_id, name: row.credential_name },
		grants: [],
		readOnly: false,
	}
}

/** Keys by id as other modules name them (never the key): its last four characters, and when it was revoked. */
export async function keysByIds(deps: AppDeps, ids: string[]): Promise<Map<string, { lastFour: string; revokedAt: Date | null }>> {
	if (!ids.length) return new Map()
	const rows = await deps.db
		.select({ id: vendorApiKeys.id, lastFour: vendorApiKeys.lastFour, revokedAt: vendorApiKeys.revokedAt })
		.from(vendorApiKeys)
		.where(inArray(vendorApiKeys.id, [...new Set(ids)]))
	return new Map(rows.map(({ id, ...key }) => [id, key]))
}

/** Vendor names by id (other modules show which vendor a job belongs to), labelled as the vendor's words. */
export async function vendorNames(deps: AppDeps, ids: string[]): Promise<Map<string, UntrustedText>> {
	if (!ids.length) return new Map()
	const rows = await deps.db
		.select({ id: vendors.id, name: vendors.name })
		.from(vendors)
		.where(inArray(vendors.id, [...new Set(ids)]))
	return new Map(rows.map((r) => [r.id, untrustedLine(r.name, 'vendor', 200)]))
}
