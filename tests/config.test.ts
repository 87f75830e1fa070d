/** Configuration: read once from the environment, validated (every problem at once), frozen. */
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { ConfigError, loadConfig } from '../core/config.ts'

function problemsOf(env: Record<string, string>): string[] {
	try {
		loadConfig(env)
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError)
		return (error as ConfigError).problems
	}
	throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`)
}

describe('defaults', () => {
	test('an empty environment gives the documented defaults', () => {
		const config = loadConfig({})
		expect(config).toMatchObject({
			port: 3000,
			baseUrl: 'http://localhost:3000',
			databaseUrl: undefined,
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
		expect(loadConfig({ PORT: '  ', DATABASE_URL: '', RATE_LIMIT_PER_MINUTE: ' ' })).toMatchObject({ port: 3000, databaseUrl: undefined, rateLimitPerMinute: 600 })
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
		expect(loadConfig({ DATABASE_URL: 'postgres://x/y', RATE_LIMIT_PER_MINUTE: '1', DEMO: 'on' })).toMatchObject({ databaseUrl: 'postgres://x/y', rateLimitPerMinute: 1, demo: true })
	})

	test('the configuration is frozen', () => {
		const config = loadConfig({})
		expect(Object.isFrozen(config)).toBe(true)
		expect(() => {
			;(config as { port: number }).port = 1
		}).toThrow()
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
		['REDIS_URL', 'http://cache:6379'],
		['SMTP_URL', 'http://mail'],
		['RATE_LIMIT_PER_MINUTE', '0'],
		['RATE_LIMIT_PER_MINUTE', 'lots'],
		['RATE_LIMIT_PER_MINUTE', '1.5'],
		['RATE_LIMIT_PER_MINUTE', '1000001'],
		['DEMO', 'maybe'],
		['LOG_LEVEL', 'loud'],
		['MAIL_FROM', 'nobody'],
	]
	for (const [variable, value] of bad)
		test(`${variable}=${JSON.stringify(value)}`, () => {
			const problems = problemsOf({ [variable]: value })
			expect(problems).toHaveLength(1)
			expect(problems[0]).toContain(variable)
			expect(() => loadConfig({ [variable]: value })).toThrow(variable)
		})

	test('every problem is reported at once', () => {
		const problems = problemsOf({ PORT: 'abc', BASE_URL: 'ftp://x', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://x', RATE_LIMIT_PER_MINUTE: '0', DEMO: 'maybe', LOG_LEVEL: 'loud' })
		expect(problems).toHaveLength(7)
		for (const variable of ['PORT', 'BASE_URL', 'DATABASE_URL', 'REDIS_URL', 'RATE_LIMIT_PER_MINUTE', 'DEMO', 'LOG_LEVEL']) expect(problems.some((p) => p.includes(variable))).toBe(true)
		try {
			loadConfig({ PORT: 'abc', DEMO: 'maybe' })
		} catch (error) {
			expect((error as Error).message).toContain('PORT')
			expect((error as Error).message).toContain('DEMO')
		}
	})

	test('the server does not start with a bad value, and says which variable is wrong', async () => {
		const root = resolve(import.meta.dir, '..')
		const proc = Bun.spawn([resolve(root, 'node_modules/.bin/bun'), 'core/main.ts'], {
			cwd: root,
			env: { PATH: process.env.PATH ?? '', PORT: 'not-a-port', RATE_LIMIT_PER_MINUTE: '-5', DATA_DIR: '/nonexistent/benchline-config-test' },
			stdout: 'pipe',
			stderr: 'pipe',
		})
		const timer = setTimeout(() => proc.kill(), 15_000)
		const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
		clearTimeout(timer)
		expect(code).not.toBe(0)
		expect(stderr).toContain('PORT')
		expect(stderr).toContain('RATE_LIMIT_PER_MINUTE')
		expect(stderr).not.toContain('    at ') // a message, not a stack trace
	})
})
