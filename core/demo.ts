/**
 * First start on an empty embedded database: a demo workspace with realistic data, an owner
 * sign-in and a vendor API key, printed once. Built from the same commands operators use.
 */
import { sql } from 'drizzle-orm'
import { randomToken } from './credentials.ts'
import type { AppDeps } from './deps.ts'
import { runCommand } from './cli.ts'

export const DEMO_SLUG = 'demo'
export const DEMO_OWNER = 'owner@demo.benchline.test'

/** Creates the demo workspace when the database has no workspace yet; returns the lines to print once. */
export async function createDemoWorkspace(deps: AppDeps): Promise<string[] | null> {
	const [row] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from workspaces`)
	if ((row?.n ?? 0) > 0) return null
	const password = `demo-${randomToken(10)}`
	await runCommand(deps, 'workspace create', { slug: DEMO_SLUG, name: 'Benchline Demo Staffing' })
	await runCommand(deps, 'user create', { workspace: DEMO_SLUG, email: DEMO_OWNER, name: 'Dana Owner', role: 'owner', password })
	await runCommand(deps, 'seed', { workspace: DEMO_SLUG })
	const vendor = await runCommand(deps, 'vendor create', { workspace: DEMO_SLUG, name: 'Demo Vendor (API)' })
	const base = deps.config.baseUrl
	return [
		'',
		'A demo workspace was created. These details are shown only this once:',
		`  Careers site:     ${base}/careers/${DEMO_SLUG}`,
		`  Portal sign-in:   ${base}/sign-in  as ${DEMO_OWNER} / ${password}`,
		`  Vendor API key:   ${vendor.json.apiKey}`,
		`  API docs:         ${base}/api/v1/docs`,
		`  Try it:           curl -H "Authorization: Bearer ${vendor.json.apiKey}" ${base}/api/v1/jobs`,
		'',
	]
}
