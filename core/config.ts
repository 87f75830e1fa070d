/**
 * Configuration, read once from the environment, validated and frozen.
 *
 * Nothing else in the code base reads `process.env`: every setting arrives through the
 * `Config` object built here. The core's settings are fields of `Config`; a module's own settings
 * (its secrets, its provider) are declared by the module (`settings` in core/module.ts, a
 * `SettingsDef` read with `config.settings.of(def)`) and parsed from the same environment. A bad
 * value stops start-up with a message naming the variable, every problem of the core and of the
 * modules at once.
 */

import { isIP } from 'node:net'
import { isEmailAddress, normalEmail } from './email.ts'
import { parseTrustProxy, type TrustedProxies } from './http/client-address.ts'
import { escapeControls, type LogLevel, redact } from './log.ts'

export type { LogLevel }

export interface Config {
	/** TCP port the HTTP server listens on. */
	readonly port: number
	/**
	 * Interface the HTTP server listens on (`HOST`): `localhost` unless set, so a first `npm start` is
	 * not reachable from the network; the Docker image sets `0.0.0.0`.
	 */
	readonly host: string
	/** Public origin of the service (no trailing slash): issuer, careers links, OAuth metadata. */
	readonly baseUrl: string
	/** PostgreSQL connection string; unset means the embedded PGlite database in `dataDir`. */
	readonly databaseUrl: string | undefined
	/** Connections each instance keeps to PostgreSQL (DATABASE_URL only). */
	readonly databasePoolSize: number
	/**
	 * `session` (default): a direct connection or a pooler in session mode. `transaction`: behind
	 * PgBouncer (or a managed pooler) in transaction mode, where consecutive transactions may run on
	 * different server connections: no named prepared statements, no session settings sent at
	 * connection, only transaction-scoped advisory locks (db/client.ts).
	 */
	readonly databasePoolMode: 'session' | 'transaction'
	/**
	 * `/metrics` (Prometheus) on the main port for a client sending this as a bearer token
	 * (`METRICS_TOKEN`, 16+ characters); unset: not served there.
	 */
	readonly metricsToken: string | undefined
	/** `/metrics` without a token on this port of the loopback interface (`METRICS_PORT`); unset: none. */
	readonly metricsPort: number | undefined
	/**
	 * OpenTelemetry traces (OTLP over HTTP), on when `OTEL_EXPORTER_OTLP_ENDPOINT` or
	 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set (core/tracing.ts); undefined: off.
	 */
	readonly tracing: TracingConfig | undefined
	/** Folder for the embedded database and uploaded files. */
	readonly dataDir: string
	/** Redis connection string; when set, rate limits are shared by every instance and MCP answers are relayed between them. */
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
	/**
	 * The proxies whose `X-Forwarded-For` names the client (`TRUST_PROXY`: `on` = loopback, or
	 * addresses and CIDR networks); empty: the connection's address counts (core/http/client-address.ts).
	 */
	readonly trustProxy: TrustedProxies
	/** True when the public origin is https (cookies get `Secure`, pages get HSTS). */
	readonly https: boolean
	/**
	 * S3-compatible object store for uploaded files (`S3_ENDPOINT`, `S3_BUCKET`, `S3_ACCESS_KEY_ID`,
	 * `S3_SECRET_ACCESS_KEY`, optional `S3_REGION`); undefined: files are kept under `DATA_DIR/files`.
	 */
	readonly s3: S3Config | undefined
	/**
	 * Seconds a connection may stay silent (headers or body trickling, idle keep-alive) before the
	 * server closes it (`HTTP_IDLE_TIMEOUT`, 3–255: Bun's limit, and room for the timeouts below it; default 30). Tests of slow clients set it low.
	 */
	readonly httpIdleTimeout: number
	/**
	 * Seconds an instance keeps serving after SIGTERM, `/ready` answering 503 meanwhile, before it
	 * closes its port (`SHUTDOWN_DRAIN_SECONDS`, 0–10; default 5): a load balancer that polls `/ready`
	 * takes it out before connections are refused. The hard deadline of 15 s counts from the signal.
	 */
	readonly shutdownDrainSeconds: number
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
	/**
	 * Single sign-on may use an identity provider at a plain `http://` issuer, on private or loopback
	 * addresses (`SSO_ALLOW_HTTP`, development and tests only: refused with `NODE_ENV=production`).
	 */
	readonly ssoAllowHttp: boolean
	/**
	 * The DNS servers that check single sign-on domains' TXT records (`DNS_SERVERS`: IP addresses,
	 * each optionally with a port, `1.1.1.1,127.0.0.1:5353,[::1]:53`); empty: the system's resolvers.
	 */
	readonly dnsServers: readonly string[]
	/**
	 * OAuth clients' metadata documents may be `http://` and on private or loopback addresses
	 * (`OAUTH_CLIENT_METADATA_ALLOW_PRIVATE`, development and tests only: refused with `NODE_ENV=production`).
	 */
	readonly oauthClientMetadataAllowPrivate: boolean
	/**
	 * Passwords are hashed at a low argon2id cost (`PASSWORD_HASH_FAST`, development and tests only:
	 * refused with `NODE_ENV=production`; modules/auth/password-hash.ts).
	 */
	readonly passwordHashFast: boolean
	/**
	 * `NODE_ENV=production`. Outside production every MCP tool result is also checked against its
	 * tool's output schema, and one that breaks it is answered with an error naming the tool and the
	 * path (core/mcp/output-check.ts); in production the check is skipped.
	 */
	readonly production: boolean
	/** The modules' own settings, parsed from the same environment (see `SettingsDef`). */
	readonly settings: ModuleSettings
	/**
	 * Seconds one uploaded file (a résumé) may take to read, in its own process, before that process is
	 * killed and the file refused (`FILE_PARSE_TIMEOUT`, 1–120; default 10). A file also waits at most
	 * this long for a free reader, so twice this must stay below `HTTP_IDLE_TIMEOUT`.
	 */
	readonly fileParseTimeout: number
}

export interface TracingConfig {
	/** Where spans are posted: the traces endpoint as given, or the general endpoint + `/v1/traces`. */
	readonly url: string
	/** `http/protobuf` (the OTLP default) or `http/json` (`OTEL_EXPORTER_OTLP_PROTOCOL`). */
	readonly protocol: 'http/protobuf' | 'http/json'
	/** `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,…`, values URL-encoded): e.g. a collector's API key. */
	readonly headers: Readonly<Record<string, string>>
	/** `service.name` of the spans (`OTEL_SERVICE_NAME`, default `benchline`). */
	readonly serviceName: string
}

export interface S3Config {
	readonly endpoint: string
	readonly bucket: string
	readonly accessKeyId: string
	readonly secretAccessKey: string
	readonly region: string
}

export class ConfigError extends Error {
	readonly problems: string[]
	constructor(problems: string[]) {
		// A problem is one line: a value it quotes cannot add a line to the list, nor send a terminal control.
		const lines = problems.map(escapeControls)
		super(`Invalid configuration:\n${lines.map((p) => `  - ${p}`).join('\n')}`)
		this.problems = lines
	}
}

/**
 * A setting that parsed but could not be used at start-up: a port another process listens on, an
 * address not of this machine, a database that does not answer, a data folder that is a file. The
 * message is `<VARIABLE>: <reason>`, one line, secrets masked (a connection string's password).
 */
export class StartupError extends Error {
	constructor(
		readonly variable: string,
		reason: string,
	) {
		super(`${variable}: ${escapeControls(redact(reason))}`)
	}
}

/** A value as a problem quotes it: JSON-quoted, so where it starts and ends shows, whatever it holds. */
const quoted = (value: string) => JSON.stringify(value)

type Env = Record<string, string | undefined>

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent']

/** localhost, *.localhost, 127.0.0.0/8 and ::1 (as `URL.hostname` spells them). */
const isLoopbackHost = (hostname: string) =>
	hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname === '[::1]'

/**
 * How settings are read from the environment, for the core and for every module: each helper
 * records what is wrong (naming the variable) and returns a fallback, so that every problem is
 * reported at once.
 */
export interface EnvReader {
	/** The trimmed value; blank counts as unset. */
	value(name: string): string | undefined
	integer(name: string, fallback: number, min: number, max: number): number
	/** An address with one of `schemes` (e.g. `https:`), as written. */
	url(name: string, schemes: string[]): string | undefined
	/** `on`/`off` (also `true`/`false`, `1`/`0`). */
	onOff(name: string, fallback: boolean): boolean
	/** A shared secret of at least `minLength` characters, or undefined when unset. */
	secret(name: string, minLength?: number): string | undefined
	/** Records a problem the helpers cannot see (e.g. variables that go together). */
	problem(message: string): void
}

/** `read` collects every variable name the reader is asked for (the contract checks below use it). */
function envReader(env: Env, problems: string[], read?: Set<string>): EnvReader {
	const value = (name: string) => {
		read?.add(name)
		const v = env[name]
		return v === undefined || v.trim() === '' ? undefined : v.trim()
	}
	return {
		value,
		integer(name, fallback, min, max) {
			const raw = value(name)
			if (raw === undefined) return fallback
			if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
				problems.push(`${name} must be a whole number from ${min} to ${max} (got ${quoted(raw)})`)
				return fallback
			}
			return Number(raw)
		},
		url(name, schemes) {
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
		},
		onOff(name, fallback) {
			const raw = (value(name) ?? (fallback ? 'on' : 'off')).toLowerCase()
			if (!['on', 'off', 'true', 'false', '1', '0'].includes(raw)) problems.push(`${name} must be "on" or "off"`)
			return ['on', 'true', '1'].includes(raw) || (!['off', 'false', '0'].includes(raw) && fallback)
		},
		secret(name, minLength = 16) {
			const v = value(name)
			if (v !== undefined && v.length < minLength) problems.push(`${name} must be at least ${minLength} characters long`)
			return v
		},
		problem: (message) => void problems.push(message),
	}
}

/** The core's settings, which a module's settings may depend on (e.g. a timeout below `httpIdleTimeout`). */
export type CoreConfig = Omit<Config, 'settings'>

/**
 * A module's own settings: the environment variables it reads (their names are contracts, listed
 * in the README) and how they are parsed. The module lists it as `settings` in its definition;
 * start-up parses every module's with the core's and reports all problems at once.
 */
export interface SettingsDef<S> {
	readonly variables: readonly string[]
	parse(env: EnvReader, core: CoreConfig): S
}

/** Identity function that fixes the type of a module's settings. */
export const defineSettings = <S>(def: SettingsDef<S>): SettingsDef<S> => def

/**
 * The modules' settings, parsed from the environment `loadConfig` read. Each is parsed once, the
 * first time it is asked for; start-up asks for every listed module's (`check`), so a bad value
 * stops it before anything is served.
 */
export class ModuleSettings {
	readonly #env: Env
	readonly #core: CoreConfig
	readonly #coreVariables: ReadonlySet<string>
	readonly #parsed = new Map<SettingsDef<unknown>, unknown>()

	constructor(env: Env, core: CoreConfig, coreVariables: ReadonlySet<string> = new Set()) {
		this.#env = Object.freeze({ ...env })
		this.#core = core
		this.#coreVariables = coreVariables
	}

	/** The settings `def` declares; throws `ConfigError` when one of its values is bad. */
	of<S>(def: SettingsDef<S>): S {
		if (!this.#parsed.has(def)) {
			const problems = this.problems([def])
			if (problems.length) throw new ConfigError(problems)
		}
		return this.#parsed.get(def) as S
	}

	/** What is wrong with the settings of `defs` (empty when nothing is); those that parse are kept. */
	problems(defs: readonly SettingsDef<unknown>[]): string[] {
		const all = declarationProblems(defs, this.#coreVariables)
		for (const def of defs) {
			if (this.#parsed.has(def)) continue
			const problems: string[] = []
			const read = new Set<string>()
			const parsed = def.parse(envReader(this.#env, problems, read), this.#core)
			// A variable read but not declared would be missing from the README's list and from this check.
			for (const name of read)
				if (!def.variables.includes(name)) problems.push(`${name} is read by a module's settings that do not declare it (add it to its variables)`)
			if (problems.length) all.push(...problems)
			else this.#parsed.set(def, Object.freeze(parsed))
		}
		return all
	}
}

/**
 * An environment variable means one thing: a module may not declare one the core reads or another
 * module declares (one of the two would silently read the other's value).
 */
function declarationProblems(defs: readonly SettingsDef<unknown>[], coreVariables: ReadonlySet<string>): string[] {
	const problems: string[] = []
	const owner = new Map<string, SettingsDef<unknown>>()
	for (const def of defs)
		for (const name of def.variables) {
			if (coreVariables.has(name)) problems.push(`${name} is a core setting; a module's settings may not declare it too`)
			else if (owner.has(name) && owner.get(name) !== def) problems.push(`${name} is declared by two modules' settings`)
			owner.set(name, def)
		}
	return problems
}

/** A bearer token (RFC 6750's characters), 16 or more of them. */
function metricsToken(read: EnvReader): string | undefined {
	const token = read.secret('METRICS_TOKEN')
	if (token !== undefined && !/^[A-Za-z0-9._~+/-]+=*$/.test(token))
		read.problem('METRICS_TOKEN must be letters, digits and - . _ ~ + / only (it is sent as a bearer token)')
	return token
}

/** `DNS_SERVERS`: `ip`, `ip:port` or `[ipv6]:port`, comma-separated (the forms node:dns `setServers` takes). */
function dnsServerList(read: EnvReader): string[] {
	const servers = (read.value('DNS_SERVERS') ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean)
	const wrong = servers.filter((server) => {
		if (isIP(server)) return false
		const [, host = '', port = ''] = /^\[(.+)\]:(\d{1,5})$/.exec(server) ?? /^([^:[\]]+):(\d{1,5})$/.exec(server) ?? []
		return !isIP(host) || (server.startsWith('[') && isIP(host) !== 6) || Number(port) < 1 || Number(port) > 65535
	})
	if (wrong.length)
		read.problem(
			`DNS_SERVERS must be IP addresses, each optionally with a port, separated by commas, e.g. 1.1.1.1,127.0.0.1:5353,[::1]:53 (got ${quoted(wrong.join(', '))})`,
		)
	return servers
}

/**
 * The standard OpenTelemetry exporter variables (the OTLP exporter specification): tracing is on when an
 * endpoint is set. `OTEL_SDK_DISABLED=true` turns it off whatever else is set.
 */
function tracingConfig(read: EnvReader): TracingConfig | undefined {
	const general = read.url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'])
	const traces = read.url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:'])
	const protocol = (read.value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? read.value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf').toLowerCase()
	if (protocol !== 'http/protobuf' && protocol !== 'http/json')
		read.problem(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not supported), got ${quoted(protocol)}`)
	const headers: Record<string, string> = {}
	for (const pair of (read.value('OTEL_EXPORTER_OTLP_TRACES_HEADERS') ?? read.value('OTEL_EXPORTER_OTLP_HEADERS') ?? '').split(',')) {
		if (!pair.trim()) continue
		const eq = pair.indexOf('=')
		try {
			if (eq < 1) throw new Error()
			headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim())
		} catch {
			read.problem('OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas (values URL-encoded)')
		}
	}
	const serviceName = read.value('OTEL_SERVICE_NAME') ?? 'benchline'
	const disabled = read.onOff('OTEL_SDK_DISABLED', false)
	if (disabled || (!general && !traces)) return undefined
	return {
		url: traces ?? `${general!.replace(/\/+$/, '')}/v1/traces`,
		protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
		headers,
		serviceName,
	}
}

/**
 * The least `HTTP_IDLE_TIMEOUT`: a résumé may wait `FILE_PARSE_TIMEOUT` (at least 1 s) for a reader and
 * be read as long, and both must end before the connection is closed.
 */
const MIN_IDLE_TIMEOUT = 3

function idleTimeout(read: EnvReader): number {
	const raw = read.value('HTTP_IDLE_TIMEOUT')
	if (raw !== undefined && /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) < MIN_IDLE_TIMEOUT) {
		read.problem(
			`HTTP_IDLE_TIMEOUT must be at least ${MIN_IDLE_TIMEOUT} (got ${quoted(raw)}): an MCP tool call and twice FILE_PARSE_TIMEOUT (1 s or more) must fit below it`,
		)
		return MIN_IDLE_TIMEOUT
	}
	return read.integer('HTTP_IDLE_TIMEOUT', 30, MIN_IDLE_TIMEOUT, 255)
}

/** A host name as DNS allows one (letters, digits and inner dashes per label); its last label is not all digits, which would be a malformed IPv4 address (`999.1.1.1`). */
function isHostName(host: string): boolean {
	const labels = host.split('.')
	return host.length <= 253 && labels.every((l) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!)
}

/**
 * One mailbox as a From header holds it: `address` or `Display Name <address>` (the name may be quoted),
 * the address checked as every stored address is (core/email.ts). A list (`a@x, b@y`), a bare `@` or a
 * name without an address is none.
 */
function isMailbox(text: string): boolean {
	const m = /^(?:(?:"[^"\\\r\n]*"|[^"<>@,;:\\\r\n]*)\s*<([^<>\s]+)>|([^<>\s"]+))$/.exec(text)
	const address = m?.[1] ?? m?.[2]
	return address !== undefined && isEmailAddress(normalEmail(address))
}

/**
 * Parses and validates the environment: the core's settings and those of `modules` (each
 * module's `settings`); throws `ConfigError` listing every problem.
 */
export function loadConfig(env: Env = process.env, modules: readonly { readonly name: string; readonly settings?: SettingsDef<unknown> }[] = []): Config {
	const problems: string[] = []
	const coreVariables = new Set<string>()
	const read = envReader(env, problems, coreVariables)
	const { value, integer, url } = read

	const port = integer('PORT', 3000, 1, 65535)
	let baseUrl = `http://localhost:${port}`
	const rawBase = value('BASE_URL')
	if (rawBase !== undefined) {
		try {
			const u = new URL(rawBase)
			if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme')
			// A user name or password would be dropped from every link without a word: refused instead.
			if (u.pathname !== '/' || u.search || u.hash || u.username || u.password) throw new Error('path')
			baseUrl = u.origin
		} catch {
			problems.push('BASE_URL must be an http:// or https:// origin without a path, user name or password, e.g. https://jobs.example.com')
		}
	}
	// Every request is served on this origin (core/http/request-path.ts), and the router reads a path
	// from the 12th character of the address on: a shorter origin (http://app) would misroute them all.
	if (baseUrl.length < 11)
		problems.push(
			`BASE_URL ${baseUrl} is too short to be served (11 characters or more): use a longer host name, e.g. http://app.internal, or a port, http://app:8080`,
		)
	// In production the sign-in pages, the OAuth server and the MCP endpoint carry passwords and
	// tokens: a plain-http public origin would send them in the clear. Loopback stays allowed (a
	// proxy on the same host, local trials of the production image).
	const production = value('NODE_ENV')?.toLowerCase() === 'production'
	if (production && baseUrl.startsWith('http:') && !isLoopbackHost(new URL(baseUrl).hostname))
		problems.push(
			`BASE_URL must be an https:// origin in production (NODE_ENV=production), got ${baseUrl}: plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])`,
		)

	const demo = read.onOff('DEMO', true)
	const logLevel = (value('LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel
	if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)

	const mailFrom = value('MAIL_FROM') ?? `Benchline <no-reply@${new URL(baseUrl).hostname}>`
	if (value('MAIL_FROM') !== undefined && !isMailbox(mailFrom))
		problems.push(
			`MAIL_FROM must be one e-mail address, optionally with a display name, e.g. no-reply@example.com or Benchline <no-reply@example.com> (got ${quoted(mailFrom)})`,
		)

	const allowedOrigins: string[] = []
	for (const raw of (value('ALLOWED_ORIGINS') ?? '')
		.split(',')
		.map((o) => o.trim())
		.filter(Boolean)) {
		if (raw === '*') allowedOrigins.push('*')
		else
			try {
				const u = new URL(raw)
				if (u.origin === 'null' || u.pathname !== '/') throw new Error()
				allowedOrigins.push(u.origin)
			} catch {
				problems.push(`ALLOWED_ORIGINS must be a comma-separated list of origins such as https://app.example.com (got ${quoted(raw)})`)
			}
	}
	const trusted = parseTrustProxy(value('TRUST_PROXY'))
	if ('problem' in trusted) problems.push(trusted.problem)
	const trustProxy = 'proxies' in trusted ? trusted.proxies : []

	let s3: S3Config | undefined
	const s3Vars = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const
	const s3Set = s3Vars.filter((n) => value(n) !== undefined)
	const s3Region = value('S3_REGION') // read whether or not S3 is set: every core variable is known to the settings check
	if (s3Set.length > 0 && s3Set.length < s3Vars.length)
		problems.push(`${s3Vars.filter((n) => value(n) === undefined).join(', ')} must be set too: an S3-compatible store needs ${s3Vars.join(', ')}`)
	else if (s3Set.length === s3Vars.length) {
		const endpoint = url('S3_ENDPOINT', ['https:', 'http:'])
		const bucket = value('S3_BUCKET')!
		if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push('S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots or dashes)')
		if (endpoint)
			s3 = {
				endpoint: endpoint.replace(/\/+$/, ''),
				bucket,
				accessKeyId: value('S3_ACCESS_KEY_ID')!,
				secretAccessKey: value('S3_SECRET_ACCESS_KEY')!,
				region: s3Region ?? 'us-east-1',
			}
	}

	const rateLimitPerMinute = integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000)
	const httpIdleTimeout = idleTimeout(read)
	// The timeouts below it are checked whether set or derived from it: a derived one must keep the rule too.
	const mcpToolTimeout = integer('MCP_TOOL_TIMEOUT', Math.max(1, Math.min(20, httpIdleTimeout - 1)), 1, 255)
	if (mcpToolTimeout >= httpIdleTimeout)
		problems.push(`MCP_TOOL_TIMEOUT must be less than HTTP_IDLE_TIMEOUT (${httpIdleTimeout}), or the connection is closed before the tool call is answered`)
	const fileParseTimeout = integer('FILE_PARSE_TIMEOUT', Math.max(1, Math.min(10, Math.floor((httpIdleTimeout - 1) / 2))), 1, 120)
	if (2 * fileParseTimeout >= httpIdleTimeout)
		problems.push(
			`FILE_PARSE_TIMEOUT must be less than half of HTTP_IDLE_TIMEOUT (${httpIdleTimeout}): a file may wait that long for a reader and then be read that long, and the connection would be closed first`,
		)

	const ssoAllowHttp = read.onOff('SSO_ALLOW_HTTP', false)
	if (ssoAllowHttp && production)
		problems.push('SSO_ALLOW_HTTP must be off in production (NODE_ENV=production): an identity provider is reached over https at a public address only')

	const dnsServers = dnsServerList(read)

	const oauthClientMetadataAllowPrivate = read.onOff('OAUTH_CLIENT_METADATA_ALLOW_PRIVATE', false)
	if (oauthClientMetadataAllowPrivate && production)
		problems.push(
			'OAUTH_CLIENT_METADATA_ALLOW_PRIVATE must be off in production (NODE_ENV=production): a client metadata document is fetched over https from a public address only',
		)

	const passwordHashFast = read.onOff('PASSWORD_HASH_FAST', false)
	if (passwordHashFast && production)
		problems.push('PASSWORD_HASH_FAST must be off in production (NODE_ENV=production): passwords are hashed at full cost there')

	const host = value('HOST') ?? 'localhost'
	if (!isIP(host) && !isHostName(host)) problems.push(`HOST must be a host name or an IP address to listen on, e.g. localhost or 0.0.0.0 (got ${quoted(host)})`)
	const databasePoolMode = (value('DATABASE_POOL_MODE') ?? 'session').toLowerCase()
	if (databasePoolMode !== 'session' && databasePoolMode !== 'transaction')
		problems.push(`DATABASE_POOL_MODE must be "session" or "transaction" (transaction: behind PgBouncer in transaction mode)`)
	const metricsPortRaw = value('METRICS_PORT')
	const metricsPort = metricsPortRaw === undefined ? undefined : integer('METRICS_PORT', 0, 1, 65535)
	if (metricsPort !== undefined && metricsPort === port) problems.push('METRICS_PORT must differ from PORT')

	const core: CoreConfig = {
		port,
		host,
		baseUrl,
		databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
		databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
		databasePoolMode: databasePoolMode === 'transaction' ? 'transaction' : 'session',
		metricsToken: metricsToken(read),
		metricsPort: metricsPort || undefined,
		tracing: tracingConfig(read),
		dataDir: value('DATA_DIR') ?? './data',
		redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
		smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
		mailFrom,
		rateLimitPerMinute,
		rateLimitPerAddressPerMinute: integer('RATE_LIMIT_PER_ADDRESS_PER_MINUTE', Math.max(6000, 10 * rateLimitPerMinute), 1, 10_000_000),
		failedCredentialsPerAddressPerMinute: integer('FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE', 30, 1, 1_000_000),
		demo,
		logLevel: LOG_LEVELS.includes(logLevel) ? logLevel : 'info',
		allowedOrigins,
		trustProxy,
		https: baseUrl.startsWith('https:'),
		s3,
		httpIdleTimeout,
		shutdownDrainSeconds: integer('SHUTDOWN_DRAIN_SECONDS', 5, 0, 10),
		mcpToolTimeout,
		smtpTimeout: integer('SMTP_TIMEOUT', 120, 1, 240),
		fileParseTimeout,
		ssoAllowHttp,
		dnsServers,
		oauthClientMetadataAllowPrivate,
		passwordHashFast,
		production,
	}
	const settings = new ModuleSettings(env, Object.freeze(core), coreVariables)
	problems.push(...settings.problems(modules.flatMap((m) => (m.settings ? [m.settings] : []))))
	if (problems.length) throw new ConfigError(problems)
	return Object.freeze({ ...core, settings })
}
