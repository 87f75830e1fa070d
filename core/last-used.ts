/** When a credential was last used, as its list shows it (personal tokens, connected apps, vendor keys). */
import type { AppDeps } from './deps.ts'

/**
 * "Last used" is kept to the minute: no write on most requests, and never on the request's path
 * (the write runs after, and a failure is only logged).
 */
export function noteUse(deps: Pick<AppDeps, 'now' | 'log'>, lastUsedAt: Date | null, write: (now: Date) => Promise<unknown>): void {
	const now = deps.now()
	if (lastUsedAt && now.getTime() - lastUsedAt.getTime() <= 60_000) return
	write(now).catch((error) => deps.log.warn('could not record credential use', { error }))
}
