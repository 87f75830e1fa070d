/**
 * The module registry validates the module list at start-up and reports every problem at once;
 * every HTTP route declares its credential, and the app refuses to start with one that does not.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { buildApp } from '../core/app.ts'
import { declaredAuth } from '../core/http/auth.ts'
import { contribute, defineModule, definePort, defineTool, type ModuleDef, type PromptDef, type ToolDef, type ViewDef } from '../core/module.ts'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { buildRegistry, contributionsTo, RegistryError } from '../core/registry.ts'
import { modules } from '../modules/index.ts'
import { findWorkspace } from '../modules/auth/index.ts'
import { workspaceDirectory } from '../modules/outbox/index.ts'
import { testApp, testDeps } from './helpers.ts'

const tool = (overrides: Partial<ToolDef<any>> = {}): ToolDef<any> =>
	defineTool({
		name: 'list_things',
		title: 'List things',
		description: 'Lists the things of the workspace, newest first, with their ids.',
		params: t.Object({ limit: t.Optional(t.Integer()) }, { additionalProperties: false }),
		output: t.Object({}),
		readOnly: true,
		permission: 'things:read',
		spec: 'R limit(integer)',
		testCalls: () => [{}],
		run: async () => ({}),
		...overrides,
	})

const things = (overrides: Partial<ModuleDef> = {}): ModuleDef =>
	defineModule({
		name: 'things',
		description: 'Things',
		permissions: [{ key: 'things:read', description: 'Read things', grantedTo: ['owner'] }],
		tools: [tool()],
		...overrides,
	})

function problemsOf(list: readonly ModuleDef[]): string[] {
	try {
		buildRegistry(list)
	} catch (error) {
		expect(error).toBeInstanceOf(RegistryError)
		return (error as RegistryError).problems
	}
	throw new Error('expected a RegistryError')
}

describe('buildRegistry', () => {
	test('the real module list is valid and ordered by requires', () => {
		const registry = buildRegistry(modules)
		const names = registry.modules.map((m) => m.name)
		expect(new Set(names).size).toBe(modules.length)
		for (const m of registry.modules) for (const dep of m.requires ?? []) expect(names.indexOf(dep)).toBeLessThan(names.indexOf(m.name))
	})

	test('a valid list passes and modules come after what they require', () => {
		const a = defineModule({ name: 'a', description: 'A', requires: ['b'] })
		const b = defineModule({ name: 'b', description: 'B', requires: ['c'] })
		const c = defineModule({ name: 'c', description: 'C' })
		expect(buildRegistry([a, b, c, things()]).modules.map((m) => m.name)).toEqual(['c', 'b', 'a', 'things'])
	})

	test('a module with tables but no migrations folder, or the other way round', () => {
		const problems = problemsOf([
			defineModule({ name: 'a', description: 'A', tables: {} }),
			defineModule({ name: 'b', description: 'B', migrations: new URL('file:///nowhere/') }),
		])
		expect(problems).toEqual([expect.stringContaining('"a" must declare both'), expect.stringContaining('"b" must declare both')])
	})

	test('a module listed twice', () => {
		const problems = problemsOf([things(), things({ tools: [] })])
		expect(problems.some((p) => p.includes('"things"') && p.includes('twice'))).toBe(true)
	})

	test('a module named like the core, or not in lowercase words and dashes', () => {
		// `core` would share the core tables' migration record (db/migrate.ts) and skip or re-run their migrations.
		expect(problemsOf([things({ name: 'core', permissions: [], tools: [] })])).toEqual([expect.stringContaining('"core" takes a name the core uses')])
		expect(problemsOf([things({ name: 'Client_Visits', permissions: [], tools: [] })])).toEqual([expect.stringContaining('lowercase words joined by dashes')])
		expect(buildRegistry([things({ name: 'client-visits', permissions: [], tools: [] })]).modules).toHaveLength(1)
	})

	test('a required module that is missing', () => {
		const problems = problemsOf([things({ requires: ['ghost'] })])
		expect(problems).toEqual([expect.stringContaining('"ghost"')])
	})

	test('modules that require each other in a cycle', () => {
		const problems = problemsOf([
			defineModule({ name: 'a', description: 'A', requires: ['b'] }),
			defineModule({ name: 'b', description: 'B', requires: ['c'] }),
			defineModule({ name: 'c', description: 'C', requires: ['a'] }),
		])
		expect(problems).toHaveLength(1)
		expect(problems[0]).toContain('cycle')
		for (const name of ['a', 'b', 'c']) expect(problems[0]).toContain(name)
	})

	test('a tool needing a permission no module declares; permissions of another module’s prefix, twice, or for an unknown role', () => {
		expect(problemsOf([things({ tools: [tool({ permission: 'things:write' })] })])).toEqual([expect.stringContaining('"things:write"')])
		expect(problemsOf([things({ permissions: [{ key: 'jobs:read' as const, description: 'x', grantedTo: ['owner'] }], tools: [] })])).toEqual([
			expect.stringContaining('"jobs:read"'),
		])
		const twice = problemsOf([
			things({
				permissions: [
					{ key: 'things:read', description: 'x', grantedTo: ['owner'] },
					{ key: 'things:read', description: 'y', grantedTo: ['admin'] },
				],
			}),
		])
		expect(twice).toEqual([expect.stringContaining('twice')])
		const role = problemsOf([things({ permissions: [{ key: 'things:read', description: 'x', grantedTo: ['janitor' as never] }] })])
		expect(role).toEqual([expect.stringContaining('"janitor"')])
	})

	test('a nav link, a page section or a can() check naming a permission no module declares, each named with its module and key', () => {
		expect(problemsOf([things({ nav: [{ href: '/things', label: 'Things', permission: 'things:browse' }] })])).toEqual([
			'nav link "/things" of module "things" needs permission "things:browse", which no module declares',
		])
		const section = { page: 'job', order: 1, permission: 'things:peek' as const, render: async () => null }
		expect(problemsOf([things({ pageSections: [section] })])).toEqual([
			'page section of module "things" on the "job" page needs permission "things:peek", which no module declares',
		])
		expect(problemsOf([things({ checks: ['things:read', 'things:wrte'] })])).toEqual([
			'module "things" checks with can() and needs permission "things:wrte", which no module declares',
		])
		// A declared key, of this module or another, passes.
		expect(
			buildRegistry([things({ checks: ['things:read'], nav: [{ href: '/things', label: 'Things', permission: 'things:read' }] })]).permissionsUsed,
		).toEqual(new Set(['things:read']))
	})

	test('a single port takes one contribution: a second is refused, naming the modules', () => {
		const owner = definePort<string>('things:owner', 'The one owner of things', { single: true })
		const declaring = things({ ports: [owner], contributes: [contribute(owner, 'a')] })
		const other = defineModule({ name: 'other', description: 'Other', requires: ['things'], contributes: [contribute(owner, 'b')] })
		expect(problemsOf([declaring, other])).toEqual(['port "things:owner" takes one contribution, but modules "things" and "other" contribute to it'])
		expect(contributionsTo(buildRegistry([declaring]), owner)).toEqual(['a'])
	})

	test('a permission granted to nobody is a warning, not an error', () => {
		const registry = buildRegistry([things({ permissions: [{ key: 'things:read', description: 'x', grantedTo: [] }] })])
		expect(registry.warnings).toEqual([expect.stringContaining('"things:read"')])
	})

	test('bad tool parameters: not an object, unknown properties allowed, a top-level combinator', () => {
		const notObject = problemsOf([things({ tools: [tool({ params: t.String() as never })] })])
		expect(notObject.some((p) => p.includes('object'))).toBe(true)
		const open = problemsOf([things({ tools: [tool({ params: t.Object({ q: t.String() }) })] })])
		expect(open).toEqual([expect.stringContaining('additionalProperties')])
		const combinator = problemsOf([things({ tools: [tool({ params: t.Union([t.Object({ a: t.String() }), t.Object({ b: t.String() })]) as never })] })])
		expect(combinator.some((p) => p.includes('combinator'))).toBe(true)
	})

	test('bad tools: name not snake_case, declared twice, read-only unstated, description too thin', () => {
		expect(problemsOf([things({ tools: [tool({ name: 'listThings' })] })])).toEqual([expect.stringContaining('snake_case')])
		expect(problemsOf([things({ tools: [tool(), tool()] })])).toEqual([expect.stringContaining('twice')])
		expect(problemsOf([things({ tools: [tool({ readOnly: undefined as never })] })])).toEqual([expect.stringContaining('read-only')])
		expect(problemsOf([things({ tools: [tool({ description: 'Lists.' })] })])).toEqual([expect.stringContaining('description')])
	})

	test('views: each shows tools of its own module or of one it requires, a tool at most one view; names, titles and tools required', () => {
		const view = (overrides: Partial<ViewDef> = {}): ViewDef => ({
			name: 'thing-card',
			title: 'Thing card',
			description: 'One thing',
			file: new URL('./thing.html', import.meta.url),
			tools: ['list_things'],
			...overrides,
		})
		expect(buildRegistry([things({ views: [view()] })]).views.map((v) => v.name)).toEqual(['thing-card'])
		expect(problemsOf([things({ views: [view({ tools: ['list_ghosts'] })] })])).toEqual([expect.stringContaining('"list_ghosts", which no module declares')])
		const other = defineModule({
			name: 'others',
			description: 'Others',
			permissions: [{ key: 'others:read', description: 'x', grantedTo: ['owner'] }],
			tools: [tool({ name: 'list_others', permission: 'others:read' })],
		})
		expect(problemsOf([other, things({ views: [view({ tools: ['list_others'] })] })])).toEqual([
			expect.stringContaining('of module "others", which it does not require'),
		])
		expect(buildRegistry([other, things({ requires: ['others'], views: [view({ tools: ['list_others'] })] })]).views).toHaveLength(1)
		expect(problemsOf([things({ views: [view(), view({ name: 'thing-list' })] })])).toEqual([expect.stringContaining('"list_things" is shown by two views')])
		expect(problemsOf([things({ views: [view(), view()] })])).toEqual(expect.arrayContaining([expect.stringContaining('declared twice')]))
		expect(problemsOf([things({ views: [view({ name: 'Thing Card' })] })])).toEqual([expect.stringContaining('lowercase words joined by dashes')])
		expect(problemsOf([things({ views: [view({ title: ' ' })] })])).toEqual([expect.stringContaining('title and a description')])
		expect(problemsOf([things({ views: [view({ tools: [] })] })])).toEqual([expect.stringContaining('shows no tool')])
	})

	test('prompts: tools of its own module or of one it requires, string arguments only, unique snake_case names, title and description', () => {
		const prompt = (overrides: Partial<PromptDef> = {}): PromptDef => ({
			name: 'sort_things',
			title: 'Sort the things',
			description: 'Sorts them',
			params: t.Object({ thing: t.String() }, { additionalProperties: false }),
			tools: ['list_things'],
			text: () => 'Sort them.',
			...overrides,
		})
		expect(buildRegistry([things({ prompts: [prompt()] })]).prompts.map((p) => p.name)).toEqual(['sort_things'])
		expect(problemsOf([things({ prompts: [prompt({ tools: ['list_ghosts'] })] })])).toEqual([
			expect.stringContaining('"list_ghosts", which no module declares'),
		])
		const other = defineModule({
			name: 'others',
			description: 'Others',
			permissions: [{ key: 'others:read', description: 'x', grantedTo: ['owner'] }],
			tools: [tool({ name: 'list_others', permission: 'others:read' })],
		})
		expect(problemsOf([other, things({ prompts: [prompt({ tools: ['list_others'] })] })])).toEqual([
			expect.stringContaining('of module "others", which it does not require'),
		])
		expect(problemsOf([things({ prompts: [prompt({ params: t.Object({ n: t.Number() }, { additionalProperties: false }) as never })] })])).toEqual([
			expect.stringContaining('argument "n" must be a string'),
		])
		expect(problemsOf([things({ prompts: [prompt({ params: t.Object({ q: t.String() }) as never })] })])).toEqual([
			expect.stringContaining('additionalProperties'),
		])
		expect(problemsOf([things({ prompts: [prompt(), prompt()] })])).toEqual([expect.stringContaining('declared twice')])
		expect(problemsOf([things({ prompts: [prompt({ name: 'sortThings' })] })])).toEqual([expect.stringContaining('snake_case')])
		expect(problemsOf([things({ prompts: [prompt({ description: '' })] })])).toEqual([expect.stringContaining('title and a description')])
		expect(problemsOf([things({ prompts: [prompt({ tools: [] })] })])).toEqual([expect.stringContaining('uses no tool')])
	})

	test('every problem is reported at once', () => {
		const problems = problemsOf([
			things({ tools: [tool({ permission: 'things:write' }), tool({ name: 'badName', params: t.Object({ q: t.String() }) })], requires: ['ghost'] }),
			defineModule({ name: 'a', description: 'A', requires: ['b'] }),
			defineModule({ name: 'b', description: 'B', requires: ['a'] }),
			defineModule({ name: 'a', description: 'A again' }),
		])
		const text = problems.join('\n')
		expect(problems.length).toBeGreaterThanOrEqual(6)
		for (const part of ['"ghost"', '"things:write"', 'snake_case', 'additionalProperties', 'cycle', 'twice']) expect(text).toContain(part)
		expect(() => buildRegistry([things({ requires: ['ghost'] }), things()])).toThrow(/ghost[\s\S]*twice|twice[\s\S]*ghost/)
	})

	test('a table pointing at another module’s table names that module in requires or references', () => {
		const owners = pgTable('owners', { id: text('id').primaryKey() })
		const rows = pgTable('rows', { id: text('id').primaryKey(), ownerId: text('owner_id').references(() => owners.id) })
		const migrations = new URL('./', import.meta.url)
		const owner = defineModule({ name: 'owner', description: 'Owner', tables: { owners }, migrations })
		const pointing = (more: Partial<ModuleDef>) => defineModule({ name: 'pointing', description: 'Pointing', tables: { rows }, migrations, ...more })
		expect(problemsOf([owner, pointing({})])).toEqual([
			'module "pointing": table "rows" points at "owners" of module "owner"; list "owner" in its requires (if it calls it) or its references',
		])
		expect(() => buildRegistry([owner, pointing({ references: ['owner'] })])).not.toThrow()
		expect(() => buildRegistry([owner, pointing({ requires: ['owner'] })])).not.toThrow()
		expect(problemsOf([owner, pointing({ references: ['owner', 'ghost'] })])).toEqual(['module "pointing" references "ghost", which is not in the module list'])
	})
})

describe('ports: a module declares an extension point, modules that require it contribute', () => {
	const greetings = definePort<(name: string) => string>('hub:greeting', 'Ways to greet someone')
	const hub = (overrides: Partial<ModuleDef> = {}) =>
		defineModule({ name: 'hub', description: 'Hub', ports: [greetings], contributes: [contribute(greetings, (n) => `hub ${n}`)], ...overrides })
	const spoke = (name: string, overrides: Partial<ModuleDef> = {}) =>
		defineModule({ name, description: name, requires: ['hub'], contributes: [contribute(greetings, (n) => `${name} ${n}`)], ...overrides })

	test('the declaring module reads every contribution, typed by the port, in dependency order', () => {
		const registry = buildRegistry([spoke('b'), spoke('a'), hub()])
		expect(contributionsTo(registry, greetings).map((greet) => greet('Dana'))).toEqual(['hub Dana', 'b Dana', 'a Dana'])
		expect(contributionsTo(buildRegistry([hub({ contributes: [] })]), greetings)).toEqual([])
	})

	test('a contribution to a port no module in the list declares', () => {
		expect(problemsOf([spoke('a', { requires: [] })])).toEqual(['module "a" contributes to port "hub:greeting", which no module in the list declares'])
	})

	test('a contributor that does not require the declaring module', () => {
		expect(problemsOf([hub(), spoke('a', { requires: [] })])).toEqual([
			'module "a" contributes to port "hub:greeting" of module "hub", which it does not require (add "hub" to its requires)',
		])
	})

	test('a port named after another module, or declared twice', () => {
		expect(problemsOf([hub({ name: 'other', contributes: [] })])).toEqual(['port "hub:greeting" of module "other" must start with "other:"'])
		expect(problemsOf([hub({ ports: [greetings, greetings] })])).toEqual(['port "hub:greeting" is declared twice (modules "hub" and "hub")'])
	})

	test('the real modules declare the recruiting ports and contribute to them', () => {
		const registry = buildRegistry(modules)
		const declared = registry.modules.flatMap((m) => (m.ports ?? []).map((p) => `${p.key} by ${m.name}`))
		expect(declared.sort()).toEqual([
			'audit:keep by audit',
			'auth:membership by auth',
			'calendar:source by calendar',
			'candidates:application-details by candidates',
			'candidates:data by candidates',
			'candidates:list-filter by candidates',
			'events:consumer by events',
			'events:type by events',
			'jobs:api-operations by jobs',
			'jobs:facts by jobs',
			'notifications:record by notifications',
			'outbox:message-footer by outbox',
			'outbox:privacy-page by outbox',
			'outbox:unsubscribed by outbox',
			'outbox:workspace-directory by outbox',
			'privacy:address-data by privacy',
			'review:source by review',
			'search:provider by search',
			'vendors:facts by vendors',
			'vendors:key-revoked by vendors',
		])
		const count = (key: string) => registry.contributions.get(key as `${string}:${string}`)?.length
		expect([
			count('review:source'),
			count('calendar:source'),
			count('search:provider'),
			count('jobs:facts'),
			count('candidates:application-details'),
			count('vendors:facts'),
			count('outbox:workspace-directory'),
			count('outbox:message-footer'),
			count('outbox:privacy-page'),
			count('jobs:api-operations'),
			count('events:consumer'),
			count('candidates:data'),
			count('outbox:unsubscribed'),
			count('candidates:list-filter'),
			count('privacy:address-data'),
			count('auth:membership'),
			count('vendors:key-revoked'),
		]).toEqual([4, 4, 3, 1, 4, 2, 1, 1, 1, 1, 2, 13, 1, 1, 1, 2, 1])
	})

	test('the outbox finds workspaces through the directory auth contributes, and says so when no module does', () => {
		expect(workspaceDirectory(buildRegistry(modules)).bySlug).toBe(findWorkspace)
		// (The outbox names auth among the modules its tables point at; without auth that line goes too.)
		const withoutAuth = modules.filter((m) => m.name === 'activity' || m.name === 'outbox').map((m) => ({ ...m, references: undefined }))
		expect(() => workspaceDirectory(buildRegistry(withoutAuth))).toThrow('No module contributes the workspace directory')
	})
})

describe('routes declare auth', () => {
	// Opening the shared test database can take seconds on a busy machine: do it before the first test.
	beforeAll(() => testApp(), 60_000)

	test('every route in the real app’s route table declares auth', async () => {
		const { app } = await testApp()
		expect(app.routes.length).toBeGreaterThan(10)
		const undeclared = app.routes.filter((r) => !declaredAuth(r.hooks)).map((r) => `${r.method} ${r.path}`)
		expect(undeclared).toEqual([])
		const authOf = (method: string, path: string) => declaredAuth(app.routes.find((r) => r.method === method && r.path === path)?.hooks)
		// The vendor API needs a vendor key; the careers site and health are public.
		for (const [method, path] of [
			['GET', '/api/v1/jobs'],
			['GET', '/api/v1/jobs/:vendorJobId'],
			['PATCH', '/api/v1/jobs/:vendorJobId'],
			['DELETE', '/api/v1/jobs/:vendorJobId'],
		] as const)
			expect(authOf(method, path)).toBe('vendor')
		// Publish looks its key up inside its own statement (one round trip).
		expect(authOf('POST', '/api/v1/jobs')).toBe('vendor-key')
		for (const path of ['/health', '/careers', '/careers/:workspace', '/careers/:workspace/jobs/:slug', '/sitemap.xml', '/api/v1/openapi.json'])
			expect(authOf('GET', path)).toBe('public')
	})

	test('buildApp refuses a route without auth, naming it', async () => {
		const deps = await testDeps()
		expect(() => buildApp(deps, [() => new Elysia().get('/sneaky', () => 'no auth')])).toThrow(RegistryError)
		try {
			buildApp(deps, [() => new Elysia().get('/sneaky', () => 'no auth').post('/sneaky-too', () => 'no auth')])
		} catch (error) {
			expect((error as RegistryError).problems).toEqual([expect.stringContaining('GET /sneaky'), expect.stringContaining('POST /sneaky-too')])
		}
		// The same route declaring its auth is accepted.
		expect(() => buildApp(deps, [({ auth }) => new Elysia().use(auth).get('/declared', () => 'ok', { auth: 'public' })])).not.toThrow()
	})

	test('buildApp refuses a route that declares two credentials', async () => {
		const deps = await testDeps()
		expect(() => buildApp(deps, [({ auth }) => new Elysia().use(auth).get('/twice', () => 'x', { auth: 'public', vendor: true })])).toThrow(
			/GET \/twice declares more than one credential/,
		)
	})

	test('each credential macro hands its handlers a non-null context, and is read back as its spec', async () => {
		const deps = await testDeps()
		// The handlers below compile only while the macros type their context (tsc runs in CI).
		const { routes } = buildApp(deps, [
			({ auth }) =>
				new Elysia()
					.use(auth)
					.get('/t/page', ({ session, actor }) => session.csrf + actor.workspaceId, { session: 'signed-in' })
					.get('/t/allowed', ({ session }) => session.actor.role, { session: { permission: 'jobs:read' } })
					.get('/t/vendor', ({ actor }) => actor.workspaceId, { vendor: true })
					.post('/t/publish', ({ vendorKey }) => vendorKey.hash, { vendorKey: true })
					.post('/t/mcp', ({ actor }) => actor.credential.id, { mcp: true })
					// @ts-expect-error a route without a credential has no session
					.get('/t/open', ({ session }) => String(session), { auth: 'public' })
					// @ts-expect-error `auth` takes only 'public' and 'form': a session is declared with `session`
					.get('/t/old', () => 'x', { auth: 'signed-in' }),
		])
		const specOf = (method: string, path: string) => declaredAuth(routes.find((r) => r.method === method && r.path === path)?.hooks)
		expect([
			specOf('GET', '/t/page'),
			specOf('GET', '/t/allowed'),
			specOf('GET', '/t/vendor'),
			specOf('POST', '/t/publish'),
			specOf('POST', '/t/mcp'),
			specOf('GET', '/t/open'),
		]).toEqual(['signed-in', { permission: 'jobs:read' }, 'vendor', 'vendor-key', 'mcp', 'public'])
	})

	test('a route needing a permission no module declares stops the app, naming the module, the route and the key', async () => {
		const deps = await testDeps()
		const rogue = defineModule({
			name: 'rogue',
			description: 'Rogue',
			paths: ['/rogue'],
			routes: (_deps, { auth }) => new Elysia().use(auth).get('/rogue', () => 'x', { session: { permission: 'rogue:ghost' } }),
		})
		const registry = buildRegistry([...deps.registry.modules, rogue])
		expect(() => buildApp({ ...deps, registry })).toThrow(RegistryError)
		try {
			buildApp({ ...deps, registry })
		} catch (error) {
			expect((error as RegistryError).problems).toEqual(['route GET /rogue of module "rogue" needs permission "rogue:ghost", which no module declares'])
		}
	})

	test('a permission declared and used by no route, tool, nav link, page section or can() check stops the app', async () => {
		const deps = await testDeps()
		const idle = defineModule({
			name: 'idle',
			description: 'Idle',
			permissions: [
				{ key: 'idle:read', description: 'Read idle things', grantedTo: ['owner'] },
				{ key: 'idle:write', description: 'Write them', grantedTo: ['owner'] },
			],
			checks: ['idle:write'],
		})
		const registry = buildRegistry([...deps.registry.modules, idle])
		try {
			buildApp({ ...deps, registry })
			throw new Error('expected a RegistryError')
		} catch (error) {
			expect((error as RegistryError).problems).toEqual([
				'permission "idle:read" of module "idle" is used by no route, tool, nav link, page section or can() check',
			])
		}
		// The same permission on a route is used.
		const used = defineModule({
			...idle,
			paths: ['/idle'],
			routes: (_deps, { auth }) => new Elysia().use(auth).get('/idle', () => 'x', { session: { permission: 'idle:read' } }),
		})
		expect(() => buildApp({ ...deps, registry: buildRegistry([...deps.registry.modules, used]) })).not.toThrow()
	})

	test('a module’s route outside the paths it declares stops the app, naming the module, the route and the paths', async () => {
		const deps = await testDeps()
		const routes = (_deps: unknown, { auth }: { auth: any }) =>
			new Elysia()
				.use(auth)
				.get('/things', () => 'x', { auth: 'public' })
				.get('/things/1', () => 'x', { auth: 'public' })
				.get('/thingsdebug', () => 'x', { auth: 'public' })
		const sneaky = defineModule({ name: 'sneaky', description: 'Sneaky', paths: ['/things'], routes })
		try {
			buildApp({ ...deps, registry: buildRegistry([...deps.registry.modules, sneaky]) })
			throw new Error('expected a RegistryError')
		} catch (error) {
			expect((error as RegistryError).problems).toEqual(['route GET /thingsdebug of module "sneaky" is outside the paths the module declares (/things)'])
		}
		const undeclared = defineModule({ name: 'sneaky', description: 'Sneaky', routes })
		expect(() => buildApp({ ...deps, registry: buildRegistry([...deps.registry.modules, undeclared]) })).toThrow(
			'route GET /things of module "sneaky" is outside the paths the module declares (none)',
		)
	})

	test('a module whose routes lack auth stops the app from being built', async () => {
		const deps = await testDeps()
		const rogue = defineModule({ name: 'rogue', description: 'Rogue', paths: ['/rogue'], routes: () => new Elysia().get('/rogue', () => 'x') })
		const registry = buildRegistry([...deps.registry.modules, rogue])
		expect(() => buildApp({ ...deps, registry })).toThrow('route GET /rogue of module "rogue" does not declare auth')
	})
})
