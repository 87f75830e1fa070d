/**
 * What people see, on every portal page (`page-list.ts`), for each role that opens it, on a phone
 * (390 px) and a desktop (1280 px) in headless Chromium: axe-core finds no serious or critical
 * violation, nothing is wider than the screen (wide tables become cards or scroll inside their
 * box), table cells keep their content in one piece (cards on a phone), the page answers 200.
 * Screenshots land in `.tmp/screenshots/` (kept by CI as artefacts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import type { Role } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { axeProblems, closeBrowser, launchBrowser, overflowing } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'
import { PORTAL_PAGES, type SampleIds } from './page-list.ts'

setDefaultTimeout(120_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
const WIDTHS = [390, 1280] as const

let url: string
let deps: AppDeps
let ws: TestWorkspace
let ids: SampleIds
const ROLES: readonly Role[] = ['owner', 'recruiter', 'hiring_manager', 'viewer']
const people = new Map<Role, Awaited<ReturnType<typeof newPerson>>>()

async function firstId(query: ReturnType<typeof sql>): Promise<string | null> {
	const [row] = await deps.database.rows<{ id: string }>(query)
	return row?.id ?? null
}

beforeAll(async () => {
	;({ url, deps } = await serveApp())
	ws = await newWorkspace(deps)
	// Each role's person joins before the seed, so their own lists (saved searches, to-dos, calendar)
	// are full, as a real person's are, not empty.
	for (const role of ROLES) people.set(role, await newPerson(ws, role, {}, deps))
	await runCommand(deps, 'seed', { workspace: ws.slug })
	const w = ws.id
	ids = {
		workspace: ws.slug,
		jobId: (await firstId(sql`select id from jobs where workspace_id = ${w} and status = 'Open' order by id limit 1`))!,
		candidateId: (await firstId(sql`select candidate_id as id from applications where workspace_id = ${w} order by id limit 1`))!,
		// The application page shows the most on a vendor's job with a completed AI interview.
		applicationId: (await firstId(
			sql`select a.id from applications a join jobs j on j.id = a.job_id where a.workspace_id = ${w}
			order by (j.vendor_id is not null) desc, exists (select 1 from interviews i where i.application_id = a.id and i.status = 'completed') desc, a.id limit 1`,
		))!,
		threadId: await firstId(sql`select id from inbox_threads where workspace_id = ${w} order by id limit 1`),
		interviewId: await firstId(sql`select id from interviews where workspace_id = ${w} order by status = 'completed' desc, id limit 1`),
		vendorId: await firstId(
			sql`select v.id from vendors v where v.workspace_id = ${w} order by (select count(*) from jobs j where j.vendor_id = v.id and j.status = 'Open') desc, v.id limit 1`,
		),
	}
	mkdirSync(SHOTS, { recursive: true })
	await launchBrowser()
}, 120_000)

afterAll(async () => {
	await closeBrowser()
})

async function signIn(page: Page, person: { email: string; password: string }) {
	await page.goto(`${url}/sign-in`)
	await page.getByLabel('Email').fill(person.email)
	await page.getByLabel('Password').fill(person.password)
	await page.getByRole('button', { name: 'Sign in' }).click()
	await page.waitForURL(/\/portal/)
}

/**
 * Table cells whose content is in more than one piece: on a phone a cell is a grid of its label and
 * its content, so a second piece (a link, then a line of text) would land in the label's column.
 */
async function splitCells(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		[...document.querySelectorAll('main table.stack td')]
			.filter((td) => [...td.childNodes].filter((n) => n.nodeType === 1 || (n.nodeType === 3 && n.textContent!.trim() !== '')).length > 1)
			.map((td) => `a "${td.getAttribute('data-label')}" cell holds ${td.childNodes.length} pieces`)
			.slice(0, 3),
	)
}

describe('every portal page, as each role sees it, on a phone and a desktop', () => {
	for (const role of ROLES) {
		const pages = PORTAL_PAGES.filter((p) => (p.roles ?? ['owner', 'recruiter']).includes(role))
		if (!pages.length) continue
		test(`${role}: ${pages.map((p) => p.name).join(', ')}`, async () => {
			const person = people.get(role)!
			const context = await (await launchBrowser()).newContext()
			const problems: string[] = []
			try {
				const page = await context.newPage()
				await signIn(page, person)
				for (const p of pages) {
					for (const width of WIDTHS) {
						await page.setViewportSize({ width, height: 900 })
						const res = await page.goto(`${url}${p.path(ids)}`)
						if (res?.status() !== 200) {
							problems.push(`${p.name}: answered ${res?.status()}`)
							continue
						}
						await page.screenshot({ path: `${SHOTS}/${p.name}-${role}-${width}.png`, fullPage: true })
						for (const o of await overflowing(page)) problems.push(`${p.name} at ${width}px: ${o}`)
						if (width === WIDTHS[0]) for (const a of await axeProblems(page)) problems.push(`${p.name}: ${a}`)
						if (width === WIDTHS[0]) for (const c of await splitCells(page)) problems.push(`${p.name} at ${width}px: ${c}`)
					}
				}
			} finally {
				await context.close()
			}
			expect(problems).toEqual([])
		})
	}
})
