/**
 * Every tool's declared input schema against what the tool refuses at run time: a value the schema
 * lets through (the one the client reads in tools/list) is never refused by the tool for its shape
 * (a length, a range, a format, a choice). So a client that follows the listed schema is never told
 * "invalid" about a parameter it could not have known: whatever the service refuses for its shape is
 * declared (and our checker, the SDK's validator for these schemas, enforces what is declared).
 *
 * Each parameter, one at a time, of each tool, on top of the tool's first `testCalls` call, gets the
 * values of a pool (boundary lengths, blank and one-character strings, dates, every listed choice, the
 * edges of every range); those the schema accepts are run (as an owner, in process), and a VALIDATION
 * error is a mismatch.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { AppError } from '../../core/errors.ts'
import type { ToolDef, ToolTestRecords } from '../../core/module.ts'
import { checkValue } from '../../core/schema-check.ts'
import { personActor } from '../../modules/auth/index.ts'
import { newPerson, newWorkspace, testDeps } from '../helpers.ts'
import { newApplication, newCandidate, newSubmissionVendor, newVendorJob } from '../staffing-fixtures.ts'

setDefaultTimeout(300_000)

type Schema = TSchema & Record<string, any>

const literalsOf = (s: Schema): unknown[] | null =>
	'const' in s ? [s.const] : Array.isArray(s.anyOf) && s.anyOf.every((x: Schema) => 'const' in x) ? s.anyOf.map((x: Schema) => x.const) : null

/** Values to try for a parameter of this schema: its edges and the usual awkward ones. */
function pool(s: Schema): unknown[] {
	const literals = literalsOf(s)
	if (literals) return literals
	if (s.type === 'string') {
		const max = s.maxLength ?? 300
		const min = s.minLength ?? 0
		return [
			'',
			' ',
			'a',
			' a ',
			'é',
			'😀',
			'ab',
			'a b',
			'a\nb',
			'a\tb',
			'x'.repeat(Math.max(min, 1)),
			'x'.repeat(max),
			'x'.repeat(max - 1),
			`${'x'.repeat(max - 2)}  `,
			'2026-03-02',
			'2026-03-02T09:30:00Z',
			'2026-03-02T09:30:00+05:30',
			'2026-03-02T09:30',
			'applied',
		]
	}
	if (s.type === 'integer' || s.type === 'number') {
		const edges = [s.minimum, s.maximum].filter((n): n is number => typeof n === 'number')
		return [...edges, 0, 1, 7, 30, 100, 999, 1000, 1001, 250_000, 2 ** 31 - 1, 2 ** 31, 10 ** 12]
	}
	if (s.type === 'boolean') return [true, false]
	if (s.type === 'array') {
		const items = pool(s.items as Schema)
		const max = s.maxItems ?? 5
		return [[], ...items.map((v) => [v]), Array.from({ length: max }, (_, i) => items[i % items.length])]
	}
	return []
}

async function world(): Promise<{ records: ToolTestRecords; actor: Awaited<ReturnType<typeof personActor>> }> {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const owner = await newPerson(ws, 'owner', {}, deps)
	const vendorId = await newSubmissionVendor(ws, {}, deps)
	const jobId = await newVendorJob(ws, { vendorId, title: 'Quokkazed Java Developer' }, deps)
	const candidateId = await newCandidate(ws, { name: 'Quokkazed Candidate' }, deps)
	const applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
	const seen: Record<string, string[]> = {
		job: [jobId],
		candidate: [candidateId],
		application: [applicationId],
		vendor: [vendorId],
		thread: [],
		interview: [],
	}
	const made: Record<string, string> = { job: jobId, candidate: candidateId, application: applicationId }
	return {
		records: { word: 'Quokkazed', seen: (kind) => seen[kind] ?? [], made: (kind) => made[kind]! },
		actor: await personActor(deps, ws.slug, owner.email),
	}
}

/**
 * Refusals that are about a value, not a shape, each with why: a schema could not say them.
 * (A cursor is left out altogether: it is refused for what it is, tamper-evident and bound to its list.)
 */
const NOT_SHAPE: Record<string, RegExp> = {
	// Which stages there are is the workspace's own pipeline, as an id names a record.
	'list_applications stageKey': /is not a stage of this workspace/,
	// Between two parameters: the end of the window follows its start (the pool's dates are in the past).
	'get_calendar to': /must be after from/,
}

const shown = (v: unknown) => {
	const json = JSON.stringify(v)
	return json.length > 40 ? `${json.slice(0, 30)}…(${json.length})` : json
}

test('no tool refuses, for its shape, a parameter value its declared input schema accepts', async () => {
	const deps = await testDeps()
	const { records, actor } = await world()
	const mismatches: string[] = []
	for (const tool of deps.registry.tools as ToolDef<any>[]) {
		const base = (tool.testCalls(records)[0] ?? {}) as Record<string, unknown>
		const properties = (tool.params as Schema).properties as Record<string, Schema>
		for (const [name, schema] of Object.entries(properties)) {
			// A cursor is refused for what it is (tamper-evident, bound to its list), never for its shape.
			if (name === 'cursor') continue
			for (const value of pool(schema)) {
				const args = { ...base, [name]: value }
				const declared = checkValue<Record<string, unknown>>(tool.params, args, { unknown: 'reject' })
				if (declared.errors.length) continue
				try {
					await tool.run({ deps, actor }, declared.value as never)
				} catch (error) {
					const said = error instanceof AppError ? `${error.message} ${JSON.stringify(error.fields ?? [])}` : ''
					if (error instanceof AppError && error.code === 'VALIDATION' && !NOT_SHAPE[`${tool.name} ${name}`]?.test(said))
						mismatches.push(`${tool.name} ${name}=${shown(value)}: ${error.message} ${JSON.stringify(error.fields ?? [])}`)
				}
			}
		}
	}
	expect(mismatches).toEqual([])
})
