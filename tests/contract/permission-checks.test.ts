/**
 * A module's `checks` (core/module.ts) lists the permission keys its code asks `can()` or
 * `roleHas()` about, so the registry can refuse an undeclared key at start-up and count the key
 * as used. This test keeps those lists true: it reads every such call in the app's code with
 * TypeScript's type checker.
 *
 * Why declared lists kept true by a scan, rather than a typed key registry: the registry needs the
 * keys at start-up (to name the module and the key in one message, and to tell which permissions
 * are used at all); a union type of declared keys would catch a misspelt key only at compile time
 * and could not say which permission is never used. Reading the calls with the type checker is
 * sound where a text search is not: the key must have a constant (string literal) type, so a key
 * passed through a constant, a helper or a ternary is still found, and a key computed at run time
 * fails the test. The core's own calls pass keys that routes, tools, nav links and page sections
 * declare; the registry checks those where they are declared.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isCallExpression, isPropertyAccessExpression } from 'typescript/unstable/ast/is'
import type { ModuleDef } from '../../core/module.ts'
import { modules } from '../../modules/index.ts'
import { appSource, fromRoot, moduleOf, nodesOf, TypeFlags, type AppSource, type Type } from './source.ts'

interface Call {
	file: string
	line: number
	module: string | null
	/** The constant keys the call may ask about, or null when the key is not a constant. */
	keys: string[] | null
	text: string
}

const literal = (t: Type) => (t.flags & TypeFlags.StringLiteral ? (t as unknown as { value: string }).value : null)

/** Every call of `can` / `roleHas` on the compiled permissions (`Permissions`, declared in core/module.ts), with its key's possible values. */
async function permissionCalls(source: AppSource): Promise<Call[]> {
	const calls: Call[] = []
	for (const file of source.files)
		for (const node of nodesOf(file)) {
			if (!isCallExpression(node) || !isPropertyAccessExpression(node.expression)) continue
			const name = node.expression.name.text
			if (name !== 'can' && name !== 'roleHas') continue
			// Only the methods of the Permissions interface, not any other `can`.
			const symbol = await source.checker.getSymbolAtLocation(node.expression.name)
			if (!symbol?.declarations.some((d) => fromRoot(d.path) === 'core/module.ts')) continue
			const type = (await source.checker.getTypeAtLocation(node.arguments[1]!))!
			const members = type.flags & TypeFlags.Union ? ((await (type as unknown as { getTypes(): Promise<readonly Type[]> }).getTypes()) ?? []) : [type]
			const keys = members.map(literal)
			calls.push({
				file: fromRoot(file.fileName),
				line: file.getLineAndCharacterOfPosition(node.pos).line + 1,
				module: moduleOf(file.fileName),
				keys: keys.every((k) => k !== null) ? (keys as string[]) : null,
				text: file.text.slice(node.pos, node.end).trim().replace(/\s+/g, ' '),
			})
		}
	return calls
}

describe('permission keys asked about in code', () => {
	let calls: Call[] = []
	let source: AppSource | undefined
	afterAll(() => source?.close())
	beforeAll(async () => {
		source = await appSource()
		calls = await permissionCalls(source)
	}, 120_000)

	test('the scan finds the calls: the modules’ and the core’s generic ones', () => {
		expect(calls.filter((c) => c.module).length).toBeGreaterThan(20)
		expect(calls.some((c) => c.file === 'core/http/auth/session.ts')).toBe(true)
		// A key passed through a constant is read as its value.
		expect(calls.find((c) => c.file === 'modules/candidates/stage-move.ts')?.keys).toEqual(['candidates:move'])
	})

	test('every key a module asks about is a constant, listed in that module’s `checks`, and every listed key is asked about', () => {
		const found = new Map<string, Set<string>>()
		const problems: string[] = []
		for (const c of calls.filter((c) => c.module)) {
			if (!c.keys) problems.push(`${c.file}:${c.line} ${c.text}: the key is not a constant string`)
			for (const key of c.keys ?? []) found.set(c.module!, (found.get(c.module!) ?? new Set()).add(key))
		}
		for (const m of modules) {
			const listed = new Set<string>((m as ModuleDef).checks ?? [])
			const asked = found.get(m.name) ?? new Set<string>()
			for (const key of asked)
				if (!listed.has(key))
					problems.push(
						`module "${m.name}" asks can() about "${key}" (${calls.find((c) => c.module === m.name && c.keys?.includes(key))?.file}) but does not list it in its checks`,
					)
			for (const key of listed) if (!asked.has(key)) problems.push(`module "${m.name}" lists "${key}" in its checks but its code never asks about it`)
		}
		expect(problems).toEqual([])
	})

	test('the core asks only about keys a route, tool, nav link or page section declares (the registry checks those)', () => {
		const generic = calls.filter((c) => !c.module)
		expect(generic.length).toBeGreaterThanOrEqual(4)
		expect(generic.filter((c) => !/\.permission\)$/.test(c.text)).map((c) => `${c.file}:${c.line} ${c.text}`)).toEqual([])
	})
})
