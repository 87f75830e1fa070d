/**
 * The demo's saved searches find candidates (issue 31): on the seeded workspace, a recruiter's
 * saved searches are links on /candidates, and each opens a list with candidates in it — the
 * words and filters each holds are ones the list applies.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { runCommand } from '../core/cli.ts'
import { newPerson, newWorkspace, testDeps } from './helpers.ts'
import { portalApp, signedIn, type PortalClient } from './portal.ts'

setDefaultTimeout(120_000)
let people: Record<'owner' | 'recruiter', PortalClient>

beforeAll(async () => {
	await portalApp()
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const recruiter = await newPerson(ws, 'recruiter', {}, deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
	people = { owner: await signedIn(owner), recruiter: await signedIn(recruiter) }
}, 300_000)

describe('the demo’s saved searches on /candidates', () => {
	test('each is a link that applies its words and filters, and finds candidates', async () => {
		for (const client of Object.values(people)) {
			const page = await client.get('/candidates')
			const section = page.text.slice(page.text.indexOf('<h2 id="saved-h">'), page.text.indexOf('</section>', page.text.indexOf('<h2 id="saved-h">')))
			const links = [...section.matchAll(/<li><a href="(\/candidates\?[^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => ({
				href: m[1]!.replace(/&amp;/g, '&'),
				name: m[2]!,
			}))
			expect(links.length).toBeGreaterThanOrEqual(1)
			for (const { href, name } of links) {
				const list = await client.get(href)
				expect({ name, status: list.status }).toEqual({ name, status: 200 })
				const found = list.text.match(/<a href="\/candidates\/cand_[^"]+">/g)?.length ?? 0
				expect({ name, found: found > 0 }).toEqual({ name, found: true })
			}
		}
	})
})
