/**
 * Periodic clean-up of what expires: failed sign-in records past the slow-down window, expired
 * sessions and authorization codes. Plain DELETEs, safe when several instances run them at once.
 */
import { lt } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { oauthCodes, sessions, signInFailures } from './table.ts'

const HOUR = 3_600_000

export async function cleanUp(deps: AppDeps): Promise<void> {
	const now = deps.now().getTime()
	await deps.db.delete(signInFailures).where(lt(signInFailures.at, new Date(now - 24 * HOUR)))
	await deps.db.delete(sessions).where(lt(sessions.expiresAt, new Date(now)))
	await deps.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, new Date(now - 24 * HOUR)))
}

export function startHousekeeping(deps: AppDeps): () => void {
	const timer = setInterval(() => cleanUp(deps).catch((error) => deps.log.warn('auth clean-up failed', { error })), HOUR)
	timer.unref?.()
	return () => clearInterval(timer)
}
