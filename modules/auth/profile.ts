/**
 * A person's profile: their time zone (the other parts of `/settings/profile`, such as the signature
 * and the daily digest, are sections of the modules that keep them).
 *
 * Rules:
 * - Every person has one time zone, an IANA name, for all their workspaces: the portal shows every
 *   time in it and reads every date they type in it (core/time.ts).
 * - Until they choose one, their browser's zone is taken at sign-in (the sign-in form sends it);
 *   a zone they chose is never replaced that way. Without either, UTC.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, invalid } from '../../core/errors.ts'
import { canonicalTimeZone } from '../../core/time.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import { users } from './table.ts'

export interface Profile {
	name: string
	email: string
	/** Null until chosen (pages use UTC). */
	timeZone: string | null
}

export async function profileOf(db: Db, userId: string): Promise<Profile> {
	const [row] = await db.select({ name: users.name, email: users.email, timeZone: users.timeZone }).from(users).where(eq(users.id, userId))
	if (!row) throw new AppError('NOT_FOUND', 'No such person')
	return row
}

/** The time zones of people by id (mail written for them: the digest, invitations); UTC for those without one. */
export async function timeZonesOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
	if (!userIds.length) return new Map()
	const rows = await db
		.select({ id: users.id, timeZone: users.timeZone })
		.from(users)
		.where(inArray(users.id, [...new Set(userIds)]))
	return new Map(rows.map((r) => [r.id, r.timeZone ?? 'UTC']))
}

/** Takes the browser's zone at sign-in for a person who has none yet; anything that is not a zone is ignored. */
export async function proposeTimeZone(db: Db, userId: string, zone: string | undefined): Promise<void> {
	const name = canonicalTimeZone(zone)
	if (!name) return
	await db
		.update(users)
		.set({ timeZone: name })
		.where(and(eq(users.id, userId), isNull(users.timeZone)))
}

export async function setTimeZone(deps: AppDeps, actor: Actor, zone: string): Promise<string> {
	if (!actor.userId) throw new AppError('FORBIDDEN', 'Only people have a time zone')
	const name = canonicalTimeZone(zone)
	if (!name) throw invalid([{ field: 'timeZone', message: 'must be one of the time zones listed' }])
	await deps.db.transaction(async (tx) => {
		await tx.update(users).set({ timeZone: name }).where(eq(users.id, actor.userId!))
		await recordActivity(tx, actor, { action: 'person.time_zone_set', targetType: 'user', targetId: actor.userId!, detail: { timeZone: name } })
	})
	return name
}
