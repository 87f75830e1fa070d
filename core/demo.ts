/**
 * First start on an empty embedded database: a demo workspace with realistic data, an owner
 * sign-in and a vendor API key, printed once. Built from the same commands operators use.
 */
import { sql } from 'drizzle-orm'
import { randomToken } from './credentials.ts'
import { runCommand } from './commands.ts'
import type { AppDeps } from './deps.ts'

export const DEMO_SLUG = 'demo'
export const DEMO_OWNER = 'owner@demo.benchline.test'

/** Creates the demo workspace when the database has no workspace yet; returns the lines to print once. */
export async function createDemoWorkspace(deps: AppDeps): Promise<string[] | null> {
	const [row] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from workspaces`)
	if ((row?.n ?? 0) > 0) return null
	return buildDemoWorkspace(deps, { slug: DEMO_SLUG, owner: DEMO_OWNER })
}

/**
 * The demo workspace under `slug`: seeded, an owner with a random password, and an API key of the
 * seeded vendor that owns the most demo jobs, so the "Try it" request lists jobs at once.
 */
export async function buildDemoWorkspace(deps: AppDeps, o: { slug: string; owner: string }): Promise<string[]> {
	const password = `demo-${randomToken(10)}`
	const ws = await runCommand(deps, 'workspace create', { slug: o.slug, name: 'Benchline Demo Staffing' })
	await runCommand(deps, 'user create', { workspace: o.slug, email: o.owner, name: 'Dana Owner', role: 'owner', password })
	await runCommand(deps, 'seed', { workspace: o.slug })
	const key = await demoVendorKey(deps, String(ws.json.workspaceId), o.slug)
	const base = deps.config.baseUrl
	return [
		'',
		'A demo workspace was created. These details are shown only this once:',
		`  Careers site:       ${base}/careers/${o.slug}`,
		`  Portal sign-in:     ${base}/sign-in  as ${o.owner} / ${password}`,
		`  Connect assistant:  sign in, then ${base}/settings/api ("Connect an assistant"; help: ${base}/help/assistants)`,
		`  Vendor API key:     ${key.apiKey}  (${key.vendor}, which owns ${key.jobs} demo jobs)`,
		`  API docs:           ${base}/api/v1/docs`,
		`  Try it:             curl -H "Authorization: Bearer ${key.apiKey}" ${base}/api/v1/jobs`,
		'',
	]
}

/** A new key of the seeded vendor (with API access) that owns the most open jobs (then the most jobs); a vendor of its own when the seed made none. */
async function demoVendorKey(deps: AppDeps, workspaceId: string, slug: string): Promise<{ apiKey: string; vendor: string; jobs: number }> {
	const [owner] = await deps.database.rows<{ id: string; name: string; jobs: number }>(
		sql`select v.id, v.name, count(*)::int as jobs from vendors v join jobs j on j.vendor_id = v.id where v.workspace_id = ${workspaceId} and v.api_access group by v.id, v.name order by count(*) filter (where j.status = 'Open') desc, count(*) desc, v.id limit 1`,
	)
	if (owner) {
		const key = await runCommand(deps, 'vendor key-create', { vendor: owner.id })
		return { apiKey: String(key.json.apiKey), vendor: owner.name, jobs: owner.jobs }
	}
	const vendor = await runCommand(deps, 'vendor create', { workspace: slug, name: 'Demo Vendor (API)' })
	return { apiKey: String(vendor.json.apiKey), vendor: 'Demo Vendor (API)', jobs: 0 }
}
