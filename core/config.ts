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
	/** Connections each instance keeps to PostgreSQL (DATABASE_URL only). */
	readonly databasePoolSize: number
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
	/**
	 * Requests per minute to the REST API (`/api/v1`) from one client address, counted before the
	 * credential is looked up, so a flood of bad keys is refused cheaply. Default: 10 × the
	 * per-credential limit, at least 6,000 (several vendors may share one address).
	 */
	readonly rateLimitPerAddressPerMinute: number
	/**
	 * Credentials that fail (malformed, unknown, revoked, expired) one client address may present
	 * per minute on every bearer door (`/api/v1`, `/api/mcp`) and the OAuth token endpoint; past it,
	 * 429 before any look-up. A missing credential is not counted (clients discover the challenge so).
	 */
	readonly failedCredentialsPerAddressPerMinute: number
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
	/**
	 * Messaging-app provider (Twilio Messages API shape: `MESSAGING_URL`, `MESSAGING_ACCOUNT`,
	 * `MESSAGING_TOKEN`, `MESSAGING_FROM`); undefined when not configured: messages are then
	 * recorded as not sent, with the reason.
	 */
	readonly messaging: MessagingConfig | undefined
	/**
	 * S3-compatible object store for uploaded files (`S3_ENDPOINT`, `S3_BUCKET`, `S3_ACCESS_KEY_ID`,
	 * `S3_SECRET_ACCESS_KEY`, optional `S3_REGION`); undefined: files are kept under `DATA_DIR/files`.
	 */
	readonly s3: S3Config | undefined
	/** Shared secret of the AI interview provider's signed callbacks (`INTERVIEW_WEBHOOK_SECRET`); unset: callbacks are refused. */
	readonly interviewWebhookSecret: string | undefined
	/** Shared secret of the inbound-mail provider's signed webhook (`INBOUND_MAIL_SECRET`); unset: inbound mail is refused. */
	readonly inboundMailSecret: string | undefined
	/** Let calendar feed addresses point at private or loopback hosts (`CALENDAR_FEEDS_ALLOW_PRIVATE`; off: refused, against SSRF). */
	readonly calendarFeedsAllowPrivate: boolean
	/**
	 * Seconds a connection may stay silent (headers or body trickling, idle keep-alive) before the
	 * server closes it (`HTTP_IDLE_TIMEOUT`, 1–255, Bun's limit; default 30). Tests of slow clients set it low.
	 */
	readonly httpIdleTimeout: number
	/**
	 * Seconds one MCP tool call may run before it is answered with a tool error (`MCP_TOOL_TIMEOUT`,
	 * 1–255; default 20, and always below `HTTP_IDLE_TIMEOUT`, which would otherwise cut the connection first).
	 */
	readonly mcpToolTimeout: number
	/**
	 * Seconds one e-mail's delivery may take in all (`SMTP_TIMEOUT`, 1–240; default 120, below the
	 * outbox's 5-minute lease so a slow send is never claimed twice). Connecting and the server's
	 * greeting get at most 10 s of it, and 30 s of silence ends it too; a server that trickles its
	 * answers is cut at this bound.
	 */
	readonly smtpTimeout: number
	/** Seconds one request to the messaging provider may take, its answer included (`MESSAGING_TIMEOUT`, 1–240; default 15). */
	readonly messagingTimeout: number
	/**
	 * Seconds one read of a calendar feed may take, redirects and body included (`CALENDAR_FEED_TIMEOUT`,
	 * 1–255; default 10, and always below `HTTP_IDLE_TIMEOUT`: the settings page reads the feed while the person waits).
	 */
	readonly calendarFeedTimeout: number
	/**
	 * Seconds one uploaded file (a résumé) may take to read, in its own process, before that process is
	 * killed and the file refused (`FILE_PARSE_TIMEOUT`, 1–120; default 10). A file also waits at most
	 * this long for a free reader, so twice this must stay below `HTTP_IDLE_TIMEOUT`.
	 */
	readonly fileParseTimeout: number
}

export interface S3Config {
	readonly endpoint: string
	readonly bucket: string
	readonly accessKeyId: string
	readonly secretAccessKey: string
	readonly region: string
}

export interface MessagingConfig {
	/** API origin, e.g. https://api.twilio.com (the default). */
	readonly url: string
	/** Account id (Twilio: the Account SID); also the basic-auth user. */
	readonly account: string
	/** API secret (Twilio: the Auth Token); the basic-auth password. */
	readonly token: string
	/** Sender, e.g. `+15550100` or `whatsapp:+15550100` (the recipient gets the same channel prefix). */
	readonly from: string
}

export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	}
}

type Env = Record<string, string | undefined>

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent']

/** localhost, *.localhost, 127.0.0.0/8 and ::1 (as `URL.hostname` spells them). */
const isLoopbackHost = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname === '[::1]'

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
	// In production the sign-in pages, the OAuth server and the MCP endpoint carry passwords and
	// tokens: a plain-http public origin would send them in the clear. Loopback stays allowed (a
	// proxy on the same host, local trials of the production image).
	const production = value('NODE_ENV')?.toLowerCase() === 'production'
	if (production && baseUrl.startsWith('http:') && !isLoopbackHost(new URL(baseUrl).hostname))
		problems.push(`BASE_URL must be an https:// origin in production (NODE_ENV=production), got ${baseUrl}: plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])`)

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

	let messaging: MessagingConfig | undefined
	const messagingVars = ['MESSAGING_ACCOUNT', 'MESSAGING_TOKEN', 'MESSAGING_FROM'] as const
	const messagingSet = messagingVars.filter((n) => value(n) !== undefined)
	const messagingUrl = url('MESSAGING_URL', ['https:', 'http:'])
	if (messagingSet.length > 0 && messagingSet.length < messagingVars.length)
		problems.push(`${messagingVars.filter((n) => value(n) === undefined).join(', ')} must be set too: the messaging provider needs MESSAGING_ACCOUNT, MESSAGING_TOKEN and MESSAGING_FROM`)
	else if (messagingSet.length === messagingVars.length) {
		const from = value('MESSAGING_FROM')!
		if (!/^(whatsapp:)?\+[1-9]\d{6,14}$/.test(from)) problems.push('MESSAGING_FROM must be a phone number in E.164 form such as +15550100, optionally prefixed with "whatsapp:"')
		messaging = { url: (messagingUrl ?? 'https://api.twilio.com').replace(/\/+$/, ''), account: value('MESSAGING_ACCOUNT')!, token: value('MESSAGING_TOKEN')!, from }
	} else if (messagingUrl !== undefined) problems.push('MESSAGING_URL is set but MESSAGING_ACCOUNT, MESSAGING_TOKEN and MESSAGING_FROM are not')

	let s3: S3Config | undefined
	const s3Vars = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const
	const s3Set = s3Vars.filter((n) => value(n) !== undefined)
	if (s3Set.length > 0 && s3Set.length < s3Vars.length) problems.push(`${s3Vars.filter((n) => value(n) === undefined).join(', ')} must be set too: an S3-compatible store needs ${s3Vars.join(', ')}`)
	else if (s3Set.length === s3Vars.length) {
		const endpoint = url('S3_ENDPOINT', ['https:', 'http:'])
		const bucket = value('S3_BUCKET')!
		if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push('S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots or dashes)')
		if (endpoint) s3 = { endpoint: endpoint.replace(/\/+$/, ''), bucket, accessKeyId: value('S3_ACCESS_KEY_ID')!, secretAccessKey: value('S3_SECRET_ACCESS_KEY')!, region: value('S3_REGION') ?? 'us-east-1' }
	}

	const webhookSecret = (name: string) => {
		const v = value(name)
		if (v !== undefined && v.length < 16) problems.push(`${name} must be at least 16 characters long`)
		return v
	}
	const feedsRaw = (value('CALENDAR_FEEDS_ALLOW_PRIVATE') ?? 'off').toLowerCase()
	if (!['on', 'off', 'true', 'false', '1', '0'].includes(feedsRaw)) problems.push('CALENDAR_FEEDS_ALLOW_PRIVATE must be "on" or "off"')

	const rateLimitPerMinute = integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000)
	const httpIdleTimeout = integer('HTTP_IDLE_TIMEOUT', 30, 1, 255)
	const mcpToolTimeout = integer('MCP_TOOL_TIMEOUT', Math.max(1, Math.min(20, httpIdleTimeout - 1)), 1, 255)
	if (value('MCP_TOOL_TIMEOUT') !== undefined && mcpToolTimeout >= httpIdleTimeout) problems.push(`MCP_TOOL_TIMEOUT must be less than HTTP_IDLE_TIMEOUT (${httpIdleTimeout}), or the connection is closed before the tool call is answered`)
	const calendarFeedTimeout = integer('CALENDAR_FEED_TIMEOUT', Math.max(1, Math.min(10, httpIdleTimeout - 1)), 1, 255)
	if (value('CALENDAR_FEED_TIMEOUT') !== undefined && calendarFeedTimeout >= httpIdleTimeout) problems.push(`CALENDAR_FEED_TIMEOUT must be less than HTTP_IDLE_TIMEOUT (${httpIdleTimeout}), or the settings page's connection is closed before the feed is read`)
	const fileParseTimeout = integer('FILE_PARSE_TIMEOUT', Math.max(1, Math.min(10, Math.floor((httpIdleTimeout - 1) / 2))), 1, 120)
	if (value('FILE_PARSE_TIMEOUT') !== undefined && 2 * fileParseTimeout >= httpIdleTimeout) problems.push(`FILE_PARSE_TIMEOUT must be less than half of HTTP_IDLE_TIMEOUT (${httpIdleTimeout}): a file may wait that long for a reader and then be read that long, and the connection would be closed first`)

	const config: Config = {
		port,
		baseUrl,
		databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
		databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
		dataDir: value('DATA_DIR') ?? './data',
		redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
		smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
		mailFrom,
		rateLimitPerMinute,
		rateLimitPerAddressPerMinute: integer('RATE_LIMIT_PER_ADDRESS_PER_MINUTE', Math.max(6000, 10 * rateLimitPerMinute), 1, 10_000_000),
		failedCredentialsPerAddressPerMinute: integer('FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE', 30, 1, 1_000_000),
		demo: ['on', 'true', '1'].includes(demoRaw),
		logLevel: LOG_LEVELS.includes(logLevel) ? logLevel : 'info',
		allowedOrigins,
		trustProxy: ['on', 'true', '1'].includes(trustRaw),
		https: baseUrl.startsWith('https:'),
		messaging,
		s3,
		interviewWebhookSecret: webhookSecret('INTERVIEW_WEBHOOK_SECRET'),
		inboundMailSecret: webhookSecret('INBOUND_MAIL_SECRET'),
		calendarFeedsAllowPrivate: ['on', 'true', '1'].includes(feedsRaw),
		httpIdleTimeout,
		mcpToolTimeout,
		smtpTimeout: integer('SMTP_TIMEOUT', 120, 1, 240),
		messagingTimeout: integer('MESSAGING_TIMEOUT', 15, 1, 240),
		calendarFeedTimeout,
		fileParseTimeout,
	}
	if (problems.length) throw new ConfigError(problems)
	return Object.freeze(config)
}
