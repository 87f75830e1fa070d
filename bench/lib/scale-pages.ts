/**
 * The portal pages of `bench/scale.ts` (issue 19, "Speed": each at p95 < 100 ms): the owner and the
 * hiring manager sign in once through the real sign-in form (`tests/portal.ts`), then each page is
 * a GET through `app.handle` with the session cookie, whole (session check, services, HTML), with
 * records that vary call by call, taken from the generated data.
 */
import type postgres from 'postgres'
import { DEFAULT_STAGES } from '../../modules/candidates/stages.ts'
import { PortalClient } from '../../tests/portal.ts'
import { busyJobIds, hmJobIds, type ScaleSizes } from './scale-data.ts'
import { SCALE_PASSWORD } from './scale-workspace.ts'

type App = { handle(request: Request): Promise<Response> }
export type Scenario = [what: string, scenario: string, run: (i: number) => Promise<unknown>]

/** A person signed in through the sign-in form; `get` answers a page's HTML and throws on anything but 200. */
export async function signedInPortal(app: App, email: string) {
	const client = new PortalClient(app, { address: '10.0.0.1' })
	const res = await client.signIn(email, SCALE_PASSWORD)
	if (res.status !== 303 || res.headers.get('location')?.startsWith('/sign-in'))
		throw new Error(`sign-in failed for ${email}: ${res.status} ${res.headers.get('location') ?? ''} ${res.text.slice(0, 300)}`)
	const get = async (path: string) => {
		const page = await client.get(path)
		if (page.status !== 200) throw new Error(`GET ${path}: ${page.status} ${page.text.replace(/\s+/g, ' ').slice(0, 300)}`)
		return page.text
	}
	/** The header search's dropdown asks `/search` for JSON (app.js): the same search, its answer as JSON. */
	const json = async (path: string) => {
		const res = await client.get(path, { accept: 'application/json' })
		if (res.status !== 200 || !res.headers.get('content-type')?.includes('application/json'))
			throw new Error(`GET ${path} (JSON): ${res.status} ${res.text.slice(0, 300)}`)
		return JSON.parse(res.text) as unknown
	}
	return { get, json }
}

/** Records the pages open, drawn from the generated data (a spread of ids, not the first ones). */
async function records(pg: ReturnType<typeof postgres>, workspaceId: string, sizes: ScaleSizes) {
	const ids = async (text: string, params: unknown[]) => (await pg.unsafe<{ id: string }[]>(text, params as never[])).map((r) => r.id)
	const busy = busyJobIds(sizes)
	const hmJobs = hmJobIds()
	const [jobs, withResume, anyCandidates, busyApps, otherApps, hmApps] = await Promise.all([
		ids(`select id from jobs where workspace_id = $1 and id <> all($2::text[]) order by md5(id) limit 200`, [workspaceId, busy]),
		ids(`select id from candidates where workspace_id = $1 and resume_text is not null order by md5(id) limit 100`, [workspaceId]),
		ids(`select id from candidates where workspace_id = $1 order by md5(id) limit 100`, [workspaceId]),
		ids(`select id from applications where job_id = any($1::text[]) order by md5(id) limit 100`, [busy]),
		ids(`select id from applications where workspace_id = $1 and job_id <> all($2::text[]) order by md5(id) limit 100`, [workspaceId, busy]),
		ids(`select id from applications where job_id = any($1::text[]) order by md5(id) limit 100`, [hmJobs]),
	])
	const names = (await pg.unsafe<{ name: string }[]>(`select name from candidates where workspace_id = $1 order by md5(id) limit 100`, [workspaceId])).map(
		(r) => r.name,
	)
	return { busy, hmJobs, jobs, withResume, anyCandidates, busyApps, otherApps, hmApps, names }
}

export async function pageScenarios(
	app: App,
	pg: ReturnType<typeof postgres>,
	workspaceId: string,
	sizes: ScaleSizes,
	people: { ownerEmail: string; hmEmail: string },
): Promise<Scenario[]> {
	const owner = await signedInPortal(app, people.ownerEmail)
	const hm = await signedInPortal(app, people.hmEmail)
	const r = await records(pg, workspaceId, sizes)
	if (!r.busy.length || !r.hmApps.length) throw new Error('the generated data has no busy job or no application on the hiring manager’s jobs')
	const pick = <T>(list: T[], i: number) => list[i % list.length]!
	const stages = DEFAULT_STAGES.map((s) => s.key)
	const titles = ['java', 'data scientist', 'salesforce', 'full stack', 'devops', '.net', 'python backend', 'qa']
	const words = [
		'java',
		'python developer',
		'kubernetes terraform',
		'snowflake',
		'salesforce apex',
		'austin',
		'guidewire',
		'data engineer',
		'react node',
		'oracle dba',
	]
	const q = encodeURIComponent
	return [
		['/portal', 'home (owner: 5 busy jobs on their teams)', () => owner.get('/portal')],
		['/jobs', 'first page', () => owner.get('/jobs')],
		['/jobs', '?status=Open', () => owner.get('/jobs?status=Open')],
		['/jobs', '?q= (varied titles)', (i) => owner.get(`/jobs?q=${q(pick(titles, i))}`)],
		['/jobs/<id>', `a busy job (${sizes.busyApplications} applications; varied of ${r.busy.length})`, (i) => owner.get(`/jobs/${pick(r.busy, i)}`)],
		['/jobs/<id>', 'any job (about 20 applications; varied)', (i) => owner.get(`/jobs/${pick(r.jobs, i)}`)],
		[
			'/jobs/<id>?stage=',
			'a busy job, one stage (varied stages)',
			(i) => owner.get(`/jobs/${pick(r.busy, i)}?stage=${pick(stages, Math.floor(i / r.busy.length))}`),
		],
		['/jobs/<id>?list=', 'a busy job, ranked applicants in full', (i) => owner.get(`/jobs/${pick(r.busy, i)}?list=applicants`)],
		['/jobs/<id>?list=', 'a busy job, bench ranking in full', (i) => owner.get(`/jobs/${pick(r.busy, i)}?list=bench`)],
		['/candidates', 'first page', () => owner.get('/candidates')],
		['/candidates', '?q= (varied words)', (i) => owner.get(`/candidates?q=${q(pick(words, i))}`)],
		['/candidates', '?q=java', () => owner.get('/candidates?q=java')],
		['/candidates', '?jobId= (busy and other jobs)', (i) => owner.get(`/candidates?jobId=${i % 2 ? pick(r.jobs, i) : pick(r.busy, i)}`)],
		['/candidates/<id>', 'with a résumé (varied)', (i) => owner.get(`/candidates/${pick(r.withResume, i)}`)],
		['/candidates/<id>', 'any candidate (varied)', (i) => owner.get(`/candidates/${pick(r.anyCandidates, i)}`)],
		['/applications/<id>', 'on a busy job (varied)', (i) => owner.get(`/applications/${pick(r.busyApps, i)}`)],
		['/applications/<id>', 'any application (varied)', (i) => owner.get(`/applications/${pick(r.otherApps, i)}`)],
		['/calendar', 'this week (owner)', () => owner.get('/calendar')],
		['/calendar', 'this week, whole workspace', () => owner.get('/calendar?scope=workspace')],
		['/inbox', 'all conversations', () => owner.get('/inbox')],
		['/inbox', 'unread', () => owner.get('/inbox?filter=unread')],
		['/activity', 'first page', () => owner.get('/activity')],
		// Issue 31: the header search (every page's box; goal p95 < 100 ms at 1,000,000 candidates): the
		// dropdown's JSON as it is typed, and the results page it sends Enter to.
		['/search (header, JSON)', 'skills and titles (varied)', (i) => owner.json(`/search?q=${q(pick(words, i))}`)],
		['/search (header, JSON)', 'a name (varied)', (i) => owner.json(`/search?q=${q(pick(r.names, i))}`)],
		['/search (header, JSON)', 'a word being typed (prefix, varied)', (i) => owner.json(`/search?q=${q(pick(words, i).slice(0, 4))}`)],
		['/search', 'results page (varied words)', (i) => owner.get(`/search?q=${q(pick(words, i))}`)],
		['/search (header, JSON)', 'hiring manager', (i) => hm.json(`/search?q=${q(pick(words, i))}`)],
		['/portal', 'home (hiring manager)', () => hm.get('/portal')],
		['/jobs', 'hiring manager', () => hm.get('/jobs')],
		['/jobs/<id>', 'hiring manager, their jobs (varied)', (i) => hm.get(`/jobs/${pick(r.hmJobs, i)}`)],
		['/candidates', 'hiring manager', () => hm.get('/candidates')],
		['/applications/<id>', 'hiring manager (varied)', (i) => hm.get(`/applications/${pick(r.hmApps, i)}`)],
		['/calendar', 'hiring manager', () => hm.get('/calendar')],
	]
}
