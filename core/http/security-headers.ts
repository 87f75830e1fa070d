/**
 * Security headers on every response: no framing, no MIME sniffing, no referrer leaks, a CSP
 * without inline script, and HSTS when the service is served over https.
 */
export const CONTENT_SECURITY_POLICY = [
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data:",
	"object-src 'none'",
	"base-uri 'none'",
	"frame-ancestors 'none'",
].join('; ')

export function securityHeaders(https: boolean): Record<string, string> {
	const headers: Record<string, string> = {
		'Content-Security-Policy': CONTENT_SECURITY_POLICY,
		'X-Frame-Options': 'DENY',
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'Cross-Origin-Opener-Policy': 'same-origin',
	}
	if (https) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains'
	return headers
}
