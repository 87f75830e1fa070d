/** The demo seed of vendors (contacts, submission methods, document rules), lookups and documents: deterministic, and a second run adds nothing. */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { runCommand } from '../../core/cli.ts'
import { fileStore } from '../../core/files.ts'
import { operatorActor } from '../auth/index.ts'
import { getVendor, listVendors } from '../vendors/index.ts'
import { staffingLookups } from '../lookups/table.ts'
import { newWorkspace, testDeps } from '../../tests/helpers.ts'
import { detectType } from './content.ts'
import { candidateDocuments } from './table.ts'

setDefaultTimeout(120_000)
beforeAll(() => testDeps())

describe('seed', () => {
	test('vendors get contacts and rules, the lookups are filled and a few candidates get documents; seeding twice adds nothing', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		await runCommand(deps, 'seed', { workspace: ws.slug })
		const count = async () => {
			const [docs] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${candidateDocuments} where workspace_id = ${ws.id}`)
			const [lookups] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from ${staffingLookups} where workspace_id = ${ws.id}`)
			return { docs: Number(docs!.n), lookups: Number(lookups!.n) }
		}
		const first = await count()
		expect(first.docs).toBeGreaterThan(5)
		expect(first.lookups).toBeGreaterThan(25)

		const owner = operatorActor(ws)
		const vendors = (await listVendors(deps, owner, { limit: 100 })).vendors
		expect(vendors.map((v) => v.submissionMethod)).toContain('portal')
		expect(vendors.filter((v) => v.submissionMethod === 'email').length).toBeGreaterThan(3)
		const apex = await getVendor(deps, owner, vendors.find((v) => v.name === 'Apex Tech Partners')!.id)
		expect(apex).toMatchObject({
			contact: { name: 'Priya Raman' },
			submission: { method: 'email', email: 'submissions@apextech.example' },
			documentRules: { always: ['dl', 'workAuth'], byWorkAuthorization: { H1B: ['visa', 'i94'] } },
		})
		expect(apex.openJobCount).toBeGreaterThan(0)

		const docs = await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.workspaceId, ws.id))
		for (const d of docs.slice(0, 4)) expect(detectType((await fileStore(deps.config).get(d.storageKey))!)?.contentType).toBe('application/pdf')

		await runCommand(deps, 'seed', { workspace: ws.slug })
		expect(await count()).toEqual(first)
		const again = await deps.db.select().from(candidateDocuments).where(eq(candidateDocuments.workspaceId, ws.id))
		expect(again.map((d) => [d.id, d.kind, d.fileName]).sort()).toEqual(docs.map((d) => [d.id, d.kind, d.fileName]).sort())
	})
})
