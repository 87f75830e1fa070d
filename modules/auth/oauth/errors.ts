/** OAuth protocol errors (RFC 6749 §5.2, RFC 7591 §3.2.2): a code, a description and a status. */
export class OAuthError extends Error {
	readonly description: string
	constructor(
		readonly error: string,
		description: string,
		readonly status = 400,
		/** Extra answer headers, e.g. `WWW-Authenticate` when the client tried an Authorization header. */
		readonly headers: Record<string, string> = {},
	) {
		super(description)
		this.description = cleanDescription(description)
	}
}

/**
 * RFC 6749 §4.1.2.1 and §5.2: `error_description` may only hold %x20-21 / %x23-5B / %x5D-7E (no
 * quotes, backslashes, CR/LF/TAB or non-ASCII). Descriptions can quote what the client sent, so
 * anything else becomes `?`.
 */
export const cleanDescription = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?').slice(0, 300)

/** JSON error answer of the token, registration and revocation endpoints (never cached). */
export function oauthErrorResponse(e: OAuthError, headers: Record<string, string> = {}): Response {
	return Response.json(
		{ error: e.error, error_description: e.description },
		{ status: e.status, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers, ...e.headers } },
	)
}
