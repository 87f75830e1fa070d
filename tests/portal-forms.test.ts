/**
 * Post/Redirect/Get for every form of the signed-in portal (issue 31: replying in a conversation
 * and reloading sent the reply again). Found from the route table, so a form is covered the day it
 * is added: each is posted as the owner, with a body that changes something where the table below
 * knows one, and must answer with a redirect (303) or a refusal (4xx) — never a page (2xx), which a
 * reload would post again. The forms with a known body must answer 303, and the page redirected to
 * must open.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../core/cli.ts'
import type { AppDeps } from '../core/deps.ts'
import { declaredAuth } from '../core/http/auth.ts'
import { operatorActor } from '../modules/auth/index.ts'
import { addHiringManager } from '../modules/jobs/team.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from './helpers.ts'
import { portalApp, signedIn, type PortalClient } from './portal.ts'

setDefaultTimeout(300_000)

let deps: AppDeps
let home: TestWorkspace
let owner: PortalClient

const one = async (query: ReturnType<typeof sql>) => {
	const [row] = await deps.database.rows<{ id: string }>(query)
	return row?.id ?? 'x'
}

beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	home = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: home.slug })
	owner = await signedIn(await newPerson(home, 'owner', {}, deps))
}, 300_000)

/** Signed-in form posts in the route table (session auth, POST). */
async function formRoutes(): Promise<string[]> {
	const { app } = await portalApp()
	return (app.routes as { method: string; path: string; hooks: unknown }[])
		.filter((r) => {
			const spec = declaredAuth(r.hooks)
			return r.method === 'POST' && (spec === 'signed-in' || (typeof spec === 'object' && spec !== null && 'permission' in spec))
		})
		.map((r) => r.path)
}

/**
 * A body that changes something, per form (path with its parameters filled). Forms missing here
 * are still posted (empty) and must not answer a page.
 */
async function changing(): Promise<Record<string, () => Promise<{ path: string; form: Record<string, string> }>>> {
	const ws = home.id
	const app = () => one(sql`select id from applications where workspace_id = ${ws} order by id limit 1`)
	const cand = () => one(sql`select id from candidates where workspace_id = ${ws} order by id limit 1`)
	const job = () => one(sql`select id from jobs where workspace_id = ${ws} order by id limit 1`)
	const thread = () => one(sql`select id from inbox_threads where workspace_id = ${ws} and counterpart_address like '%@%' order by id limit 1`)
	return {
		'/inbox/:id/:action': async () => ({ path: `/inbox/${await thread()}/reply`, form: { text: 'Thanks, talk soon.' } }),
		'/inbox/bulk': async () => ({ path: '/inbox/bulk', form: { thread: await thread(), back: '/inbox' } }),
		'/bench/bulk': async () => ({ path: '/bench/bulk', form: { candidate: await cand(), roleFamily: 'java', back: '/candidates' } }),
		'/todos': async () => ({ path: '/todos', form: { title: 'Call back about the start date' } }),
		'/todos/:id/:action': async () => ({
			path: `/todos/${await one(sql`select id from todos where workspace_id = ${ws} order by id limit 1`)}/done`,
			form: {},
		}),
		'/lookups': async () => ({ path: '/lookups', form: { kind: 'client', name: `Harbor ${Date.now()}` } }),
		'/lookups/:id/remove': async () => ({
			path: `/lookups/${await one(sql`select id from staffing_lookups where workspace_id = ${ws} order by id limit 1`)}/remove`,
			form: {},
		}),
		'/saved-searches': async () => ({ path: '/saved-searches', form: { list: 'candidates', name: `Java ${Date.now()}`, query: 'java' } }),
		'/saved-searches/:id/rename': async () => ({
			path: `/saved-searches/${await one(sql`select id from saved_searches where workspace_id = ${ws} order by id limit 1`)}/rename`,
			form: { name: `Renamed ${Date.now()}` },
		}),
		'/saved-searches/:id/delete': async () => ({
			path: `/saved-searches/${await one(sql`select id from saved_searches where workspace_id = ${ws} order by id desc limit 1`)}/delete`,
			form: {},
		}),
		'/settings/calendar/remove': async () => ({ path: '/settings/calendar/remove', form: {} }),
		'/settings/calendar/refresh': async () => ({ path: '/settings/calendar/refresh', form: {} }),
		'/notifications/read-all': async () => ({ path: '/notifications/read-all', form: {} }),
		'/candidates/saved-searches': async () => ({
			path: '/candidates/saved-searches',
			form: { name: `Citizens by name ${Date.now()}`, q: 'developer', workAuthorization: 'USC,GC', sort: 'name' },
		}),
		'/candidates/:id/notes': async () => ({ path: `/candidates/${await cand()}/notes`, form: { text: 'Prefers remote.', visibility: 'shared' } }),
		'/candidates/:id/todos': async () => ({ path: `/candidates/${await cand()}/todos`, form: { title: 'Ask for references' } }),
		'/candidates/:id/bench': async () => ({ path: `/candidates/${await cand()}/bench`, form: { roleFamily: 'java' } }),
		'/applications/bulk': async () => ({
			path: '/applications/bulk',
			form: { application: await app(), action: 'move', stageKey: 'submitted', back: `/jobs/${await job()}` },
		}),
		'/applications/:id/stage': async () => ({ path: `/applications/${await app()}/stage`, form: { stageKey: 'screening' } }),
		'/jobs/:id/actively-hiring': async () => ({ path: `/jobs/${await job()}/actively-hiring`, form: { activelyHiring: 'on' } }),
		'/jobs/:id/team': async () => ({ path: `/jobs/${await job()}/team`, form: { userId: (await newPerson(home, 'hiring_manager', {}, deps)).userId } }),
		'/jobs/:id/team/:userId/remove': async () => {
			const { userId } = await newPerson(home, 'hiring_manager', {}, deps)
			await addHiringManager(deps, operatorActor(home), await job(), userId)
			return { path: `/jobs/${await job()}/team/${userId}/remove`, form: {} }
		},
		'/people/:userId/grants': async () => ({
			path: `/people/${(await newPerson(home, 'recruiter', {}, deps)).userId}/grants`,
			form: { grant: 'jobs:actively_hiring' },
		}),
		'/settings/templates': async () => ({
			path: '/settings/templates',
			form: { name: `Hello ${Date.now()}`, channel: 'email', kind: 'transactional', subject: 'Hi', body: 'Hello {{candidate.firstName}}' },
		}),
		'/settings/security/sign-out-others': async () => ({ path: '/settings/security/sign-out-others', form: {} }),
		'/settings/privacy': async () => ({ path: '/settings/privacy', form: { federalContractor: 'on', holdYears: '2' } }),
	}
}

describe('every signed-in form answers with a redirect or a refusal, never a page', () => {
	test('found from the route table', async () => {
		const routes = await formRoutes()
		expect(routes.length).toBeGreaterThan(40)
		const bodies = await changing()
		// Forms that end the session itself are posted last.
		const last = new Set(['/settings/security/sessions/:ref/sign-out', '/settings/security/sign-out-others', '/sign-out'])
		const ordered = [...routes.filter((r) => !last.has(r)), ...[...last].filter((r) => routes.includes(r))]
		const pages: string[] = []
		const notRedirected: string[] = []
		for (const route of ordered) {
			const known = Object.hasOwn(bodies, route) ? bodies[route] : undefined
			const { path, form } = known ? await known() : { path: route.replace(/:[A-Za-z]+/g, 'x'), form: {} }
			await owner.get('/portal')
			const res = await owner.post(path, form)
			if (res.status >= 200 && res.status < 300) pages.push(`${route}: ${res.status}`)
			if (res.status >= 500) pages.push(`${route}: ${res.status}`)
			if (known) {
				if (res.status !== 303) notRedirected.push(`${route}: ${res.status} ${(res.text.match(/<div class="error-summary"[\s\S]*?<\/div>/) ?? [''])[0]}`)
				else {
					const location = res.headers.get('location')!
					if (!location.startsWith('/sign-in')) expect({ route, opened: (await owner.get(location)).status }).toEqual({ route, opened: 200 })
				}
			}
		}
		expect(pages).toEqual([])
		expect(notRedirected).toEqual([])
	})

	test('replying in a conversation, then reloading twice, queues one message', async () => {
		const c = await signedIn(await newPerson(home, 'recruiter', {}, deps))
		const thread = await one(sql`select id from inbox_threads where workspace_id = ${home.id} and counterpart_address like '%@%' order by id desc limit 1`)
		const count = async () =>
			(await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from inbox_messages where thread_id = ${thread} and direction = 'out'`))[0]!.n
		const before = await count()
		await c.get(`/inbox/${thread}`)
		const sent = await c.post(`/inbox/${thread}/reply`, { text: 'One reply, once.' })
		expect(sent.status).toBe(303)
		const location = sent.headers.get('location')!
		expect(location).toBe(`/inbox/${thread}?done=replied`)
		for (let i = 0; i < 2; i++) {
			const reloaded = await c.get(location)
			expect(reloaded.status).toBe(200)
			expect(reloaded.text).toContain('Your reply is on its way.')
		}
		expect(await count()).toBe(before + 1)
	})
})
