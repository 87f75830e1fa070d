/**
 * A new personal token is shown once on the API access page, across the redirect that follows its
 * creation (Post/Redirect/Get: reloading never makes a second token). See core/http/reveal-cookie.ts.
 */
import { revealCookie } from '../../core/http/reveal-cookie.ts'

export interface Revealed {
	name: string
	token: string
}

const newToken = revealCookie<Revealed>(
	'bl_new_token',
	'/settings/api',
	(v): v is Revealed => typeof (v as Revealed)?.name === 'string' && typeof (v as Revealed)?.token === 'string',
)

export const sealReveal = newToken.seal
export const openReveal = newToken.open
