/** Configuration: read once from the environment, validated (every problem at once), frozen. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ConfigError, defineSettings, loadConfig, type SettingsDef } from '../core/config.ts'
import { createDeps } from '../core/main.ts'
import type { ModuleDef } from '../core/module.ts'
import { auditSettings } from '../modules/audit/settings.ts'
import { calendarSettings } from '../modules/calendar/settings.ts'
import { inboxSettings } from '../modules/inbox/settings.ts'
import { modules } from '../modules/index.ts'
import { interviewSettings } from '../modules/interviews/settings.ts'
import { outboxSettings } from '../modules/outbox/settings.ts'
import { webhookSettings } from '../modules/webhooks/settings.ts'
import { configProblems } from './helpers.ts'

function problemsOf(env: Record<string, string>): string[] {
	const problems = configProblems(env)
	if (!problems.length) throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`)
	return problems
}

/** Starts the server with `env` (and nothing else) and expects it to refuse: its exit code and what it printed. */
async function failedStart(env: Record<string, string>): Promise<string> {
	const root = resolve(import.meta.dir, '..')
	const proc = Bun.spawn([resolve(root, 'node_modules/.bin/bun'), 'core/main.ts'], {
		cwd: root,
		env: { PATH: process.env.PATH ?? '', DATA_DIR: '/nonexistent/benchline-config-test', ...env },
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const timer = setTimeout(() => proc.kill(), 15_000)
	const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
	clearTimeout(timer)
	expect(code).not.toBe(0)
	return stderr
}

describe('defaults', () => {
	test('an empty environment gives the documented defaults', () => {
		const config = loadConfig({})
		expect(config).toMatchObject({
			port: 3000,
			baseUrl: 'http://localhost:3000',
			databaseUrl: undefined,
			databasePoolSize: 10,
			dataDir: './data',
			redisUrl: undefined,
			smtpUrl: undefined,
			rateLimitPerMinute: 600,
			demo: true,
			logLevel: 'info',
			https: false,
		})
		expect(config.mailFrom).toContain('@localhost')
	})

	test('BASE_URL defaults to http://localhost:$PORT; blank values count as unset', () => {
		expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
		expect(loadConfig({ PORT: '  ', DATABASE_URL: '', RATE_LIMIT_PER_MINUTE: ' ' })).toMatchObject({
			port: 3000,
			databaseUrl: undefined,
			rateLimitPerMinute: 600,
		})
	})

	test('valid values are taken, trimmed and normalised', () => {
		const config = loadConfig({
			PORT: '4000',
			BASE_URL: 'https://jobs.example.com/',
			DATABASE_URL: 'postgresql://app@db:5432/benchline',
			DATA_DIR: '/var/lib/benchline',
			REDIS_URL: 'rediss://cache:6380',
			SMTP_URL: 'smtp://mail:25',
			RATE_LIMIT_PER_MINUTE: ' 1000000 ',
			DEMO: 'off',
			LOG_LEVEL: 'DEBUG',
		})
		expect(config).toMatchObject({
			port: 4000,
			baseUrl: 'https://jobs.example.com',
			databaseUrl: 'postgresql://app@db:5432/benchline',
			dataDir: '/var/lib/benchline',
			redisUrl: 'rediss://cache:6380',
			smtpUrl: 'smtp://mail:25',
			rateLimitPerMinute: 1_000_000,
			demo: false,
			logLevel: 'debug',
			https: true,
		})
		expect(loadConfig({ DATABASE_URL: 'postgres://x/y', RATE_LIMIT_PER_MINUTE: '1', DEMO: 'on' })).toMatchObject({
			databaseUrl: 'postgres://x/y',
			rateLimitPerMinute: 1,
			demo: true,
		})
	})

	test('the configuration is frozen', () => {
		const config = loadConfig({})
		expect(Object.isFrozen(config)).toBe(true)
		expect(() => {
			;(config as { port: number }).port = 1
		}).toThrow()
	})
})

describe('the per-address REST limit (I13)', () => {
	test('defaults to 10 × RATE_LIMIT_PER_MINUTE, at least 6,000, so it never undercuts one key', () => {
		expect(loadConfig({}).rateLimitPerAddressPerMinute).toBe(6000)
		expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '3' }).rateLimitPerAddressPerMinute).toBe(6000)
		expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '2000' }).rateLimitPerAddressPerMinute).toBe(20000)
		expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '2000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '500' }).rateLimitPerAddressPerMinute).toBe(500)
	})
})

describe('failed credentials per address (issue 16)', () => {
	test('30 a minute unless FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE says otherwise', () => {
		expect(loadConfig({}).failedCredentialsPerAddressPerMinute).toBe(30)
		expect(loadConfig({ FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE: '5' }).failedCredentialsPerAddressPerMinute).toBe(5)
	})
})

describe('production refuses a plain-http public origin (L2)', () => {
	const production = { NODE_ENV: 'production' }

	test('NODE_ENV=production with an http:// BASE_URL on a public or private host stops start-up, naming BASE_URL', () => {
		for (const base of [
			'http://jobs.example.com',
			'http://10.0.0.5:3000',
			'http://192.168.1.20',
			'http://[2001:db8::1]',
			'http://127.0.0.1.nip.io',
			'http://localhost.example.com',
		]) {
			const problems = problemsOf({ ...production, BASE_URL: base })
			expect({ base, problems }).toEqual({
				base,
				problems: [expect.stringMatching(/^BASE_URL must be an https:\/\/ origin in production \(NODE_ENV=production\)/)],
			})
		}
		expect(problemsOf({ NODE_ENV: 'Production', BASE_URL: 'http://jobs.example.com' })).toHaveLength(1)
	})

	test('https, loopback http and the default origin are accepted in production; other environments accept http', () => {
		for (const base of [
			'https://jobs.example.com',
			'http://localhost:8080',
			'http://127.0.0.1:3000',
			'http://127.1.2.3',
			'http://[::1]:3000',
			'http://app.localhost',
		])
			expect(loadConfig({ ...production, BASE_URL: base }).baseUrl).toBe(new URL(base).origin)
		expect(loadConfig(production).baseUrl).toBe('http://localhost:3000')
		for (const env of ['development', 'test', ''])
			expect(loadConfig({ NODE_ENV: env, BASE_URL: 'http://jobs.example.com' }).baseUrl).toBe('http://jobs.example.com')
		expect(loadConfig({ BASE_URL: 'http://jobs.example.com' }).https).toBe(false)
	})

	test('the production server does not start on a plain-http public origin', async () => {
		const stderr = await failedStart({ NODE_ENV: 'production', BASE_URL: 'http://jobs.example.com' })
		expect(stderr).toContain('BASE_URL must be an https:// origin in production')
	})
})

describe('bad values stop start-up with a ConfigError naming the variable', () => {
	const bad: [variable: string, value: string][] = [
		['PORT', 'abc'],
		['PORT', '0'],
		['PORT', '65536'],
		['PORT', '80.5'],
		['PORT', '-1'],
		['BASE_URL', 'ftp://jobs.example.com'],
		['BASE_URL', 'jobs.example.com'],
		['BASE_URL', 'https://jobs.example.com/careers'],
		['BASE_URL', 'https://jobs.example.com/?a=1'],
		['BASE_URL', 'https://user:pw@jobs.example.com'],
		['DATABASE_URL', 'mysql://db/benchline'],
		['DATABASE_URL', 'not a url'],
		['DATABASE_POOL_SIZE', '0'],
		['DATABASE_POOL_SIZE', 'ten'],
		['REDIS_URL', 'http://cache:6379'],
		['SMTP_URL', 'http://mail'],
		['RATE_LIMIT_PER_MINUTE', '0'],
		['RATE_LIMIT_PER_MINUTE', 'lots'],
		['RATE_LIMIT_PER_MINUTE', '1.5'],
		['RATE_LIMIT_PER_MINUTE', '1000001'],
		['RATE_LIMIT_PER_ADDRESS_PER_MINUTE', '0'],
		['RATE_LIMIT_PER_ADDRESS_PER_MINUTE', 'many'],
		['RATE_LIMIT_PER_ADDRESS_PER_MINUTE', '10000001'],
		['FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE', '0'],
		['FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE', 'few'],
		['DEMO', 'maybe'],
		['LOG_LEVEL', 'loud'],
		['MAIL_FROM', 'nobody'],
		['MAIL_FROM', '@'],
		['MAIL_FROM', 'a b c @ d e'],
		['MAIL_FROM', 'Benchline <no-reply@>'],
		['MAIL_FROM', 'x@y.com, evil@z.com'],
		['MAIL_FROM', 'Benchline <a@y.com>, evil@z.com'],
		['BASE_URL', 'http://:pw@jobs.example.com'],
		['BASE_URL', 'http://app'],
		['BASE_URL', 'https://ab:443'],
		['HOST', '999.1.1.1'],
		['HOST', 'bad_host'],
		['HOST', '-leading-dash'],
		['HTTP_IDLE_TIMEOUT', '1'],
		['HTTP_IDLE_TIMEOUT', '2'],
		['SHUTDOWN_DRAIN_SECONDS', '11'],
		['SHUTDOWN_DRAIN_SECONDS', 'soon'],
		['TRUST_PROXY', 'yes'],
		['TRUST_PROXY', '10.0.0.0/33'],
		['TRUST_PROXY', '127.0.0.1,proxy.internal'],
	]
	for (const [variable, value] of bad)
		test(`${variable}=${JSON.stringify(value)}`, () => {
			const problems = problemsOf({ [variable]: value })
			expect(problems).toHaveLength(1)
			expect(problems[0]).toContain(variable)
			expect(() => loadConfig({ [variable]: value })).toThrow(variable)
		})

	test('MAIL_FROM takes one mailbox, with or without a display name; HOST an IP address or a host name', () => {
		for (const from of ['no-reply@example.com', 'Benchline <no-reply@example.com>', '"Benchline, Inc." <no-reply@example.com>', 'Jobs<jobs@bücher.example>'])
			expect(loadConfig({ MAIL_FROM: from }).mailFrom).toBe(from)
		for (const host of ['localhost', '0.0.0.0', '::', '::1', '10.1.2.3', 'app-1.internal', 'my.host.example.com'])
			expect(loadConfig({ HOST: host }).host).toBe(host)
	})

	test('a value is quoted in its problem, so a newline or a terminal control in it cannot forge a line of the list', () => {
		const error = (() => {
			try {
				loadConfig({ PORT: '1\n  - all good', ALLOWED_ORIGINS: 'x\u001b[2J\u202e' })
			} catch (e) {
				return e as ConfigError
			}
		})()!
		expect(error.message.split('\n')).toEqual([
			'Invalid configuration:',
			'  - PORT must be a whole number from 1 to 65535 (got "1\\n  - all good")',
			expect.stringContaining('(got "x\\u001b[2J\\u202e")'),
		])
	})

	test('the timeouts derived from HTTP_IDLE_TIMEOUT keep their rules at every value it may take', () => {
		for (let idle = 3; idle <= 255; idle++) {
			const config = loadConfig({ HTTP_IDLE_TIMEOUT: String(idle) }, modules)
			expect({
				idle,
				tool: config.mcpToolTimeout < idle,
				file: 2 * config.fileParseTimeout < idle,
				feed: config.settings.of(calendarSettings).calendarFeedTimeout < idle,
			}).toEqual({
				idle,
				tool: true,
				file: true,
				feed: true,
			})
		}
		expect(problemsOf({ HTTP_IDLE_TIMEOUT: '2' })).toEqual([expect.stringMatching(/^HTTP_IDLE_TIMEOUT must be at least 3 \(got "2"\)/)])
		expect(problemsOf({ HTTP_IDLE_TIMEOUT: '4', FILE_PARSE_TIMEOUT: '2' })).toEqual([expect.stringContaining('FILE_PARSE_TIMEOUT must be less than half')])
	})

	test('every problem is reported at once', () => {
		const problems = problemsOf({
			PORT: 'abc',
			BASE_URL: 'ftp://x',
			DATABASE_URL: 'mysql://x',
			REDIS_URL: 'http://x',
			RATE_LIMIT_PER_MINUTE: '0',
			DEMO: 'maybe',
			LOG_LEVEL: 'loud',
		})
		expect(problems).toHaveLength(7)
		for (const variable of ['PORT', 'BASE_URL', 'DATABASE_URL', 'REDIS_URL', 'RATE_LIMIT_PER_MINUTE', 'DEMO', 'LOG_LEVEL'])
			expect(problems.some((p) => p.includes(variable))).toBe(true)
		try {
			loadConfig({ PORT: 'abc', DEMO: 'maybe' })
		} catch (error) {
			expect((error as Error).message).toContain('PORT')
			expect((error as Error).message).toContain('DEMO')
		}
	})

	test('the server does not start with a bad value, and says which variable is wrong', async () => {
		const stderr = await failedStart({ PORT: 'not-a-port', RATE_LIMIT_PER_MINUTE: '-5' })
		expect(stderr).toContain('PORT')
		expect(stderr).toContain('RATE_LIMIT_PER_MINUTE')
		expect(stderr).not.toContain('    at ') // a message, not a stack trace
	})
})

describe('a setting that parses but cannot be used stops start-up with one line naming it: no stack, no password', () => {
	const notAFolder = join(tmpdir(), `benchline-not-a-folder-${process.pid}`)
	beforeAll(() => writeFileSync(notAFolder, 'a file'))
	afterAll(() => rmSync(notAFolder, { force: true }))

	function expectNamed(stderr: string, variable: string): string {
		const line = stderr.split('\n').find((l) => l.startsWith(`${variable}: `))
		expect({ variable, line }).toEqual({ variable, line: expect.any(String) })
		expect(stderr).not.toContain('    at ')
		expect(stderr).not.toContain('uncaught exception')
		return line!
	}

	/** A port nothing listens on (it was free a moment ago). */
	function freePort(): number {
		const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
		const port = probe.port!
		probe.stop(true)
		return port
	}

	test('PORT in use; METRICS_PORT in use, found before the database is opened (DATA_DIR here would fail next)', async () => {
		const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
		try {
			const [port, metrics] = await Promise.all([
				failedStart({ HOST: '127.0.0.1', PORT: String(taken.port), DATA_DIR: notAFolder }),
				failedStart({ HOST: '127.0.0.1', PORT: String(freePort()), METRICS_PORT: String(taken.port), DATA_DIR: notAFolder }),
			])
			expect(expectNamed(port, 'PORT')).toContain(`port ${taken.port} on 127.0.0.1 is in use`)
			expect(expectNamed(metrics, 'METRICS_PORT')).toContain(`port ${taken.port} on 127.0.0.1 is in use`)
		} finally {
			taken.stop(true)
		}
	}, 30_000)

	test('HOST not an address of this machine; DATA_DIR a file; DATABASE_URL not answering, its password never shown', async () => {
		const [host, dataDir, database] = await Promise.all([
			failedStart({ HOST: '192.0.2.1', PORT: String(freePort()) }),
			failedStart({ HOST: '127.0.0.1', PORT: String(freePort()), DATA_DIR: notAFolder }),
			failedStart({ HOST: '127.0.0.1', PORT: String(freePort()), DATABASE_URL: 'postgres://app:pw-never-shown@127.0.0.1:1/benchline' }),
		])
		expect(expectNamed(host, 'HOST')).toContain('192.0.2.1')
		expect(expectNamed(dataDir, 'DATA_DIR')).toContain(notAFolder)
		expect(expectNamed(database, 'DATABASE_URL')).toContain('127.0.0.1:1/benchline')
		expect(database).not.toContain('pw-never-shown')
	}, 30_000)
})

describe('modules declare their own settings, checked at start-up with the core’s (issue 18)', () => {
	// The variable names are contracts (deployments set them): a module owns them, never renames them.
	test('the modules that own the interview and inbound-mail secrets, the calendar feeds, the messaging provider, the webhooks and the audit trail declare exactly these variables', () => {
		const declared = Object.fromEntries((modules as readonly ModuleDef[]).flatMap((m) => (m.settings ? [[m.name, [...m.settings.variables].sort()]] : [])))
		expect(declared).toEqual({
			audit: ['AUDIT_RETENTION_DAYS'],
			interviews: ['INTERVIEW_WEBHOOK_SECRET'],
			inbox: ['INBOUND_MAIL_AUTHSERV_ID', 'INBOUND_MAIL_SECRET'],
			calendar: ['CALENDAR_FEEDS_ALLOW_PRIVATE', 'CALENDAR_FEED_TIMEOUT'],
			outbox: ['MESSAGING_ACCOUNT', 'MESSAGING_FROM', 'MESSAGING_TIMEOUT', 'MESSAGING_TOKEN', 'MESSAGING_URL'],
			webhooks: ['WEBHOOKS_ALLOW_PRIVATE', 'WEBHOOK_RETRY_SCHEDULE'],
			indexing: ['GOOGLE_INDEXING_CREDENTIALS', 'GOOGLE_INDEXING_ENDPOINT', 'INDEXNOW_ENDPOINT', 'INDEXNOW_KEY'],
		})
	})

	test('defaults, and values taken from the environment', () => {
		const empty = loadConfig({}, modules).settings
		expect(empty.of(interviewSettings)).toEqual({ webhookSecret: undefined })
		expect(empty.of(inboxSettings)).toEqual({ inboundMailSecret: undefined })
		expect(empty.of(calendarSettings)).toEqual({ calendarFeedsAllowPrivate: false, calendarFeedTimeout: 10 })
		expect(empty.of(outboxSettings)).toEqual({ messaging: undefined, messagingTimeout: 15 })
		expect(empty.of(webhookSettings).webhooksAllowPrivate).toBe(false)
		expect(empty.of(auditSettings)).toEqual({ retentionDays: 400 })
		expect(empty.of(webhookSettings).webhookRetryScheduleMs).toHaveLength(7)
		const set = loadConfig(
			{
				INTERVIEW_WEBHOOK_SECRET: ' interview-secret-0123 ',
				INBOUND_MAIL_SECRET: 'inbound-secret-0123',
				CALENDAR_FEEDS_ALLOW_PRIVATE: 'ON',
				CALENDAR_FEED_TIMEOUT: '5',
				MESSAGING_TIMEOUT: '30',
				WEBHOOKS_ALLOW_PRIVATE: 'on',
				WEBHOOK_RETRY_SCHEDULE: '1s, 2m',
				AUDIT_RETENTION_DAYS: '730',
			},
			modules,
		).settings
		expect(set.of(interviewSettings).webhookSecret).toBe('interview-secret-0123')
		expect(set.of(inboxSettings).inboundMailSecret).toBe('inbound-secret-0123')
		expect(set.of(calendarSettings)).toEqual({ calendarFeedsAllowPrivate: true, calendarFeedTimeout: 5 })
		expect(set.of(outboxSettings).messagingTimeout).toBe(30)
		expect(set.of(auditSettings)).toEqual({ retentionDays: 730 })
		expect(set.of(webhookSettings)).toEqual({ webhooksAllowPrivate: true, webhookRetryScheduleMs: [1_000, 120_000] })
		expect(Object.isFrozen(set.of(calendarSettings))).toBe(true)
	})

	const bad: [variable: string, value: string][] = [
		['INTERVIEW_WEBHOOK_SECRET', 'too-short'],
		['INBOUND_MAIL_SECRET', 'too-short'],
		['CALENDAR_FEEDS_ALLOW_PRIVATE', 'maybe'],
		['CALENDAR_FEED_TIMEOUT', '0'],
		['CALENDAR_FEED_TIMEOUT', '30'],
		['MESSAGING_TIMEOUT', '241'],
		['MESSAGING_URL', 'ftp://x'],
		['MESSAGING_ACCOUNT', 'AC1'],
		['WEBHOOKS_ALLOW_PRIVATE', 'maybe'],
		['WEBHOOK_RETRY_SCHEDULE', '5 minutes'],
		['WEBHOOK_RETRY_SCHEDULE', '3000000d'],
		['WEBHOOK_RETRY_SCHEDULE', '5s,31d'],
		['WEBHOOK_RETRY_SCHEDULE', Array(51).fill('1s').join(',')],
		['WEBHOOK_RETRY_SCHEDULE', '0s'],
		['WEBHOOK_RETRY_SCHEDULE', '5s,500ms'],
		['AUDIT_RETENTION_DAYS', '0'],
	]
	for (const [variable, value] of bad)
		test(`${variable}=${JSON.stringify(value)}`, () => {
			const problems = problemsOf({ [variable]: value })
			expect(problems).toHaveLength(1)
			expect(problems[0]).toContain(variable)
			expect(() => loadConfig({ [variable]: value }, modules)).toThrow(ConfigError)
		})

	test("a webhook retry waits at most 30 days (the next attempt's date must stay one PostgreSQL stores)", () => {
		expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '30d,720h' }, modules).settings.of(webhookSettings).webhookRetryScheduleMs).toEqual([
			2_592_000_000, 2_592_000_000,
		])
		expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '3000000d' })).toEqual([expect.stringContaining('each at most 30d')])
	})

	test('a webhook retry waits at least 1 second (a wait of 0 retries a receiver that has just failed as fast as the worker polls)', () => {
		expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '0s' })).toEqual([
			expect.stringMatching(/^WEBHOOK_RETRY_SCHEDULE must be .*each at most 30d and at least 1s.*: "0s" is shorter than 1s \(got "0s"\)$/),
		])
		expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '5s, 0.5s, 5m' })).toEqual([expect.stringContaining('"0.5s" is shorter than 1s')])
		expect(configProblems({ WEBHOOK_RETRY_SCHEDULE: '1000ms,1s' })).toEqual([])
	})

	test('a variable means one thing: declared by two modules, declared by a module and read by the core, or read without being declared', () => {
		const mine = defineSettings({ variables: ['CLIENT_VISITS_LIMIT'], parse: (env) => ({ limit: env.integer('CLIENT_VISITS_LIMIT', 5, 1, 10) }) })
		const same = defineSettings({ variables: ['CLIENT_VISITS_LIMIT'], parse: (env) => ({ limit: env.value('CLIENT_VISITS_LIMIT') }) })
		const core = defineSettings({ variables: ['S3_REGION'], parse: (env) => ({ region: env.value('S3_REGION') }) })
		const sneaky = defineSettings({ variables: [], parse: (env) => ({ token: env.value('MESSAGING_TOKEN') }) })
		const problems = (defs: SettingsDef<unknown>[]) => {
			try {
				loadConfig(
					{},
					defs.map((settings, i) => ({ name: `m${i}`, settings })),
				)
				return []
			} catch (error) {
				return (error as ConfigError).problems
			}
		}
		expect(problems([mine])).toEqual([])
		expect(problems([mine, same])).toEqual(["CLIENT_VISITS_LIMIT is declared by two modules' settings"])
		// S3_REGION is read by the core even when S3 is not configured, so the clash is found on every machine.
		expect(problems([core])).toEqual(["S3_REGION is a core setting; a module's settings may not declare it too"])
		expect(problems([sneaky])).toEqual([expect.stringContaining('MESSAGING_TOKEN is read by a module')])
		expect(problems((modules as readonly ModuleDef[]).flatMap((m) => (m.settings ? [m.settings] : [])))).toEqual([])
	})

	test('one error lists the core’s problems and every module’s', () => {
		const problems = problemsOf({
			PORT: 'abc',
			LOG_LEVEL: 'loud',
			INTERVIEW_WEBHOOK_SECRET: 'short',
			INBOUND_MAIL_SECRET: 'short',
			CALENDAR_FEEDS_ALLOW_PRIVATE: 'maybe',
			MESSAGING_FROM: '+15550100',
		})
		expect(problems).toHaveLength(6)
		for (const variable of ['PORT', 'LOG_LEVEL', 'INTERVIEW_WEBHOOK_SECRET', 'INBOUND_MAIL_SECRET', 'CALENDAR_FEEDS_ALLOW_PRIVATE', 'MESSAGING_ACCOUNT'])
			expect(problems.some((p) => p.includes(variable))).toBe(true)
	})

	test('settings of modules loadConfig was not given are checked when the dependencies are built, before the database opens; read later, a bad one throws', async () => {
		const config = loadConfig({ INTERVIEW_WEBHOOK_SECRET: 'short', DATABASE_URL: 'postgres://nowhere.invalid/db' })
		expect(() => config.settings.of(interviewSettings)).toThrow(/INTERVIEW_WEBHOOK_SECRET must be at least 16 characters/)
		const error = await createDeps({ config }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(ConfigError)
		expect((error as ConfigError).problems).toEqual(['INTERVIEW_WEBHOOK_SECRET must be at least 16 characters long'])
	})

	test('the server does not start with a bad module setting, and names it with the core’s', async () => {
		const stderr = await failedStart({ PORT: 'not-a-port', INBOUND_MAIL_SECRET: 'short', CALENDAR_FEED_TIMEOUT: 'soon' })
		for (const variable of ['PORT', 'INBOUND_MAIL_SECRET', 'CALENDAR_FEED_TIMEOUT']) expect(stderr).toContain(variable)
		expect(stderr).not.toContain('    at ')
	})
})
