/**
 * Configuration, read once from the environment, validated and frozen.
 *
 * Nothing else in the code base reads `process.env`: every setting arrives through the
 * `Config` object built here. A bad value stops start-up with a message naming the
 * variable (all problems are reported at once).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

export interface Config {
	/** TCP port the HTTP server listens on. */
	readonly port: number
	/** Public origin of the service (no trailing slash): issuer, careers links, OAuth metadata. */
	readonly baseUrl: string
	/** PostgreSQL connection string; unset means the embedded PGlite database in `dataDir`. */
	readonly databaseUrl: string | undefined
	/** Folder for the embedded database and uploaded files. */
	readonly dataDir: string
	/** Redis connection string; when set, rate limits are shared by every instance. */
	readonly redisUrl: string | undefined
	/** SMTP connection string for outgoing mail; unset keeps mail in the outbox (dev mailbox). */
	readonly smtpUrl: string | undefined
	/** Sender address of outgoing mail. */
	readonly mailFrom: string
	/** Requests per minute allowed for one credential. */
	readonly rateLimitPerMinute: number
	/** Whether a first start on an empty embedded database creates the demo workspace. */
	readonly demo: boolean
	/** Minimum level of log lines written to stderr. */
	readonly logLevel: LogLevel
	/** Browser origins allowed to call `/api/mcp` and the OAuth endpoints besides `baseUrl` (`*` = any). */
	readonly allowedOrigins: readonly string[]
	/** Trust `X-Forwarded-For` for the client address (only behind a proxy you run). */
	readonly trustProxy: boolean
	/** True when the public origin is https (cookies get `Secure`, pages get HSTS). */
	readonly https: boolean
}

export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	}
}

type Env = Record<string, string | undefined>

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent']

/** Parses and validates the environment; throws `ConfigError` listing every problem. */
export function loadConfig(env: Env = process.env): Config {
	const problems: string[] = []
	const value = (name: string) => {
		const v = env[name]
		return v === undefined || v.trim() === '' ? undefined : v.trim()
	}
	const integer = (name: string, fallback: number, min: number, max: number) => {
		const raw = value(name)
		if (raw === undefined) return fallback
		if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
			problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`)
			return fallback
		}
		return Number(raw)
	}
	const url = (name: string, schemes: string[]) => {
		const raw = value(name)
		if (raw === undefined) return undefined
		try {
			const u = new URL(raw)
			if (!schemes.includes(u.protocol)) throw new Error()
			return raw
		} catch {
			problems.push(`${name} must be a ${schemes.map((s) => s + '//').join(' or ')} address`)
			return undefined
		}
	}

	const port = integer('PORT', 3000, 1, 65535)
	let baseUrl = `http://localhost:${port}`
	const rawBase = value('BASE_URL')
	if (rawBase !== undefined) {
		try {
			const u = new URL(rawBase)
			if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme')
			if (u.pathname !== '/' || u.search || u.hash || u.username) throw new Error('path')
			baseUrl = u.origin
		} catch {
			problems.push('BASE_URL must be an http:// or https:// origin without a path, e.g. https://jobs.example.com')
		}
	}

	const demoRaw = (value('DEMO') ?? 'on').toLowerCase()
	if (!['on', 'off', 'true', 'false', '1', '0'].includes(demoRaw)) problems.push('DEMO must be "on" or "off"')
	const logLevel = (value('LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel
	if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)

	const mailFrom = value('MAIL_FROM') ?? `Benchline <no-reply@${new URL(baseUrl).hostname}>`
	if (!/^[^\r\n]*@[^\r\n]*$/.test(mailFrom)) problems.push('MAIL_FROM must be an e-mail address, optionally with a display name')

	const allowedOrigins: string[] = []
	for (const raw of (value('ALLOWED_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter(Boolean)) {
		if (raw === '*') allowedOrigins.push('*')
		else
			try {
				const u = new URL(raw)
				if (u.origin === 'null' || u.pathname !== '/') throw new Error()
				allowedOrigins.push(u.origin)
			} catch {
				problems.push(`ALLOWED_ORIGINS must be a comma-separated list of origins such as https://app.example.com (got "${raw}")`)
			}
	}
	const trustRaw = (value('TRUST_PROXY') ?? 'off').toLowerCase()
	if (!['on', 'off', 'true', 'false', '1', '0'].includes(trustRaw)) problems.push('TRUST_PROXY must be "on" or "off"')

	const config: Config = {
		port,
		baseUrl,
		databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
		dataDir: value('DATA_DIR') ?? './data',
		redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
		smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
		mailFrom,
		rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
		demo: ['on', 'true', '1'].includes(demoRaw),
		logLevel: LOG_LEVELS.includes(logLevel) ? logLevel : 'info',
		allowedOrigins,
		trustProxy: ['on', 'true', '1'].includes(trustRaw),
		https: baseUrl.startsWith('https:'),
	}
	if (problems.length) throw new ConfigError(problems)
	return Object.freeze(config)
}
