/**
 * The DNS side of verifying a single sign-on domain: the TXT record an owner adds, and reading it.
 *
 * The record is `_benchline-challenge.<domain>` TXT `benchline-domain-verification=<token>` (a name
 * of its own, as Atlassian and GitHub do, so it sits beside the domain's other TXT records, SPF
 * included, and can be removed without touching them). It is read with node:dns's `Resolver`, at the
 * servers `DNS_SERVERS` names (else the system's), bounded in time: the owner waits on the page.
 */
import { Resolver } from 'node:dns/promises'
import type { Config } from '../../../core/config.ts'
import { AppError } from '../../../core/errors.ts'

export const CHALLENGE_LABEL = '_benchline-challenge'
export const RECORD_PREFIX = 'benchline-domain-verification='
export const recordName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`
export const recordValue = (token: string) => `${RECORD_PREFIX}${token}`
/** The longest domain whose record name is still a DNS name (253 characters at most): a longer one could never be verified. */
export const MAX_DOMAIN_LENGTH = 253 - recordName('').length

/** Answers that mean "no such record": the name does not exist, or has no TXT record. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA'])

/** Seconds a check may take in all: 5, and always less than HTTP_IDLE_TIMEOUT (the page waits for it). */
export const lookupSeconds = (config: Pick<Config, 'httpIdleTimeout'>) => Math.max(1, Math.min(5, config.httpIdleTimeout - 1))

/**
 * The TXT records at `name`, each one's strings joined (a long record comes in 255-byte chunks);
 * none when the name or its TXT records do not exist. A resolver that fails or does not answer in
 * time is an `UNAVAILABLE` error saying so.
 */
export async function txtRecords(config: Pick<Config, 'dnsServers' | 'httpIdleTimeout'>, name: string): Promise<string[]> {
	const seconds = lookupSeconds(config)
	const resolver = new Resolver({ timeout: Math.ceil((seconds * 1000) / 2), tries: 2 })
	if (config.dnsServers.length) resolver.setServers([...config.dnsServers])
	let timer: ReturnType<typeof setTimeout> | undefined
	// The resolver's own timeout is per try and per server: this bounds the whole lookup.
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			resolver.cancel()
			reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' }))
		}, seconds * 1000)
	})
	try {
		const records = await Promise.race([resolver.resolveTxt(name), late])
		return records.map((chunks) => chunks.join(''))
	} catch (error) {
		const code = (error as { code?: string }).code ?? ''
		if (NO_RECORD.has(code)) return []
		const why = code === 'ETIMEOUT' || code === 'ECANCELLED' ? `did not answer within ${seconds} seconds` : `could not be asked (${code || 'error'})`
		throw new AppError('UNAVAILABLE', `DNS ${why} for ${name}: try again in a moment`, { cause: error })
	} finally {
		clearTimeout(timer)
	}
}
