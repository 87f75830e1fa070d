/**
 * The client's network address, for per-address limits. Behind a proxy we run (TRUST_PROXY=on),
 * the last `X-Forwarded-For` entry is the one our proxy added; earlier entries are whatever the
 * client sent and cannot be trusted.
 */
import type { Config } from '../config.ts'

export interface RequestIPSource {
	requestIP(request: Request): { address: string } | null
}

export function clientAddress(config: Pick<Config, 'trustProxy'>, request: Request, server: RequestIPSource | null | undefined): string {
	if (config.trustProxy) {
		const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim()
		if (forwarded) return forwarded
	}
	return server?.requestIP(request)?.address ?? 'unknown'
}
