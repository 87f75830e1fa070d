/**
 * What people see, on every portal page (`page-list.ts`), for each role that opens it, on a phone
 * (390 px) and a desktop (1280 px) in headless Chromium: axe-core finds no serious or critical
 * violation, nothing is wider than the screen (wide tables become cards or scroll inside their
 * box), the page answers 200. Screenshots land in `.tmp/screenshots/` (kept by CI as artefacts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import type { Role } from '../../core/actor.ts'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { closeBrowser, launchBrowser } from '../browser.ts'
import { newPerson, newWorkspace, serveApp, type TestWorkspace } from '../helpers.ts'
import { PORTAL_PAGES, type SampleIds } from './page-list.ts'

setDefaultTimeout(120_000)

const SHOTS = resolve(import.meta.dir, '../../.tmp/screenshots')
const AXE = readFileSync(resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const WIDTHS = [390, 1280] as const

let url: string
let deps: AppDeps
let ws: TestWorkspace
let ids: SampleIds

async function firstId(query: ReturnType<typeof sql>): Promise<string | null> {
	const [row] = await deps.database.rows<{ id: string }>(query)
	return row?.id ?? null
}

beforeAll(async () => {
	;({ url, deps } = await serveApp())
	ws = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
	const w = ws.id
	ids = {
		workspace: ws.slug,
		jobId: (await firstId(sql`select id from jobs where workspace_id = ${w} and status = 'Open' order by id limit 1`))!,
		candidateId: (await firstId(sql`select candidate_id as id from applications where workspace_id = ${w} order by id limit 1`))!,
		applicationId: (await firstId(sql`select id from applications where workspace_id = ${w} order by id limit 1`))!,
		threadId: await firstId(sql`select id from inbox_threads where workspace_id = ${w} order by id limit 1`),
		interviewId: await firstId(sql`select id from interviews where workspace_id = ${w} order by status = 'completed' desc, id limit 1`),
		vendorId: await firstId(sql`select v.id from vendors v where v.workspace_id = ${w} order by (select count(*) from jobs j where j.vendor_id = v.id and j.status = 'Open') desc, v.id limit 1`),
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

interface AxeResult {
	violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
}

/** Serious and critical axe violations on the page, as readable lines. */
async function axeProblems(page: Page): Promise<string[]> {
	// Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
	await page.evaluate(AXE)
	const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as AxeResult
	return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)
}

/** Elements sticking out past the right edge of the screen (what a phone would cut off). */
async function overflowing(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const width = document.documentElement.clientWidth
		const out: string[] = []
		if (document.documentElement.scrollWidth > width + 1) out.push(`page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`)
		for (const el of document.querySelectorAll('main *')) {
			// Inside a box that scrolls sideways on purpose (a table-wrap), sticking out is fine; so is
			// what is only there for screen readers (a card table's header row on a phone).
			if (el.closest('.table-wrap, pre, .visually-hidden, table.stack thead')) continue
			const r = el.getBoundingClientRect()
			if (r.width > 0 && r.right > width + 1) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} ends at ${Math.round(r.right)}px`)
		}
		return out.slice(0, 5)
	})
}

const ROLES: readonly Role[] = ['owner', 'recruiter', 'hiring_manager', 'viewer']

describe('every portal page, as each role sees it, on a phone and a desktop', () => {
	for (const role of ROLES) {
		const pages = PORTAL_PAGES.filter((p) => (p.roles ?? ['owner', 'recruiter']).includes(role))
		if (!pages.length) continue
		test(`${role}: ${pages.map((p) => p.name).join(', ')}`, async () => {
			const person = await newPerson(ws, role, {}, deps)
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
					}
				}
			} finally {
				await context.close()
			}
			expect(problems).toEqual([])
		})
	}
})
