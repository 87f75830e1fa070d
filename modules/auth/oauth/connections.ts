/**
 * Connected apps: the grants a person gave. Owners and admins see and disconnect everyone's;
 * others their own. Disconnecting ends every grant of that app for that person at once.
 */
import { and, asc, desc, eq, isNull, max, min, sql } from 'drizzle-orm'
import type { Actor } from '../../../core/actor.ts'
import { isAdmin } from '../../../core/actor.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { AppError } from '../../../core/errors.ts'
import { recordActivity } from '../../activity/index.ts'
import { expireCodes } from '../access.ts'
import { mayEndCredentialsOf, OWNER_CREDENTIALS_ONLY } from '../owners.ts'
import { memberships, oauthClients, oauthGrants, users } from '../table.ts'

export interface Connection {
	clientId: string
	appName: string
	userId: string
	personName: string
	connectedAt: Date
	lastUsedAt: Date | null
	readOnly: boolean
	redirectHosts: string[]
	/** Whether the reader may disconnect it (an admin may not disconnect an owner's app). */
	mayDisconnect: boolean
}

export async function listConnections(deps: AppDeps, actor: Actor): Promise<Connection[]> {
	const rows = await deps.db
		.select({
			clientId: oauthGrants.clientId,
			appName: oauthClients.name,
			redirectUris: oauthClients.redirectUris,
			userId: oauthGrants.userId,
			personName: users.name,
			role: memberships.role,
			connectedAt: min(oauthGrants.createdAt),
			lastUsedAt: max(oauthGrants.lastUsedAt),
			// Full access when any live grant of the app and person can write (as tokens.ts reads a grant:
			// not read-only, and its scope names mcp). Never max/min of the scope text: 'mcp:read' > 'mcp'.
			canWrite: sql<boolean>`bool_or(not ${oauthGrants.readOnly} and 'mcp' = any(string_to_array(${oauthGrants.scope}, ' ')))`,
		})
		.from(oauthGrants)
		.innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
		.innerJoin(users, eq(users.id, oauthGrants.userId))
		.leftJoin(memberships, and(eq(memberships.userId, oauthGrants.userId), eq(memberships.workspaceId, oauthGrants.workspaceId), isNull(memberships.removedAt)))
		.where(
			and(
				eq(oauthGrants.workspaceId, actor.workspaceId),
				isNull(oauthGrants.revokedAt),
				isAdmin(actor) ? undefined : eq(oauthGrants.userId, actor.userId ?? ''),
			),
		)
		.groupBy(oauthGrants.clientId, oauthClients.name, oauthClients.redirectUris, oauthGrants.userId, users.name, memberships.role)
		.orderBy(desc(min(oauthGrants.createdAt)), asc(oauthGrants.clientId), asc(oauthGrants.userId))
	return rows.map((r) => ({
		clientId: r.clientId,
		appName: r.appName,
		userId: r.userId,
		personName: r.personName,
		connectedAt: new Date(r.connectedAt!),
		lastUsedAt: r.lastUsedAt ? new Date(r.lastUsedAt) : null,
		readOnly: !r.canWrite,
		redirectHosts: [...new Set(r.redirectUris.map((u) => new URL(u).host))],
		mayDisconnect: mayEndCredentialsOf(actor, { userId: r.userId, role: r.role }),
	}))
}

export async function disconnectApp(deps: AppDeps, actor: Actor, clientId: string, userId: string): Promise<void> {
	if (!isAdmin(actor) && userId !== actor.userId) throw new AppError('NOT_FOUND', 'No such connection')
	await deps.db.transaction(async (tx) => {
		const [member] = await tx
			.select({ role: memberships.role })
			.from(memberships)
			.where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, actor.workspaceId), isNull(memberships.removedAt)))
		if (!mayEndCredentialsOf(actor, { userId, role: member?.role ?? null })) throw new AppError('FORBIDDEN', OWNER_CREDENTIALS_ONLY)
		const revoked = await tx
			.update(oauthGrants)
			.set({ revokedAt: deps.now(), revokedReason: 'disconnected' })
			.where(
				and(eq(oauthGrants.workspaceId, actor.workspaceId), eq(oauthGrants.clientId, clientId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)),
			)
			.returning({ id: oauthGrants.id })
		if (!revoked.length) throw new AppError('NOT_FOUND', 'No such connection')
		await expireCodes(tx, { userId, workspaceId: actor.workspaceId, clientId, now: deps.now() })
		await recordActivity(tx, actor, { action: 'app.disconnected', targetType: 'oauth_client', targetId: clientId, detail: { userId, grants: revoked.length } })
	})
}
