/**
 * The new personal token, shown once on the API access page after the redirect that follows its
 * creation (Post/Redirect/Get): sealed in a short-lived cookie for that page (`core/http/reveal.ts`).
 */
import type { AppDeps } from '../../core/deps.ts'
import { oneTimeReveal } from '../../core/http/reveal.ts'

export interface Revealed {
	name: string
	token: string
}

const newToken = oneTimeReveal<Revealed>({
	name: 'bl_new_token',
	path: '/settings/api',
	read: (v) => (typeof v.token === 'string' && typeof v.name === 'string' ? { name: v.name, token: v.token } : null),
})

type Deps = Pick<AppDeps, 'config' | 'secret' | 'now'>

/** Keeps the new token for the next page of this session (only). */
export const sealReveal = (deps: Deps, cookie: Record<string, any>, sessionId: string, value: Revealed) => newToken.seal(deps, cookie, sessionId, value)

/** The token kept for this session, if any; the cookie is cleared either way (shown once). */
export const openReveal = (deps: Deps, cookie: Record<string, any>, sessionId: string) => newToken.open(deps, cookie, sessionId)
