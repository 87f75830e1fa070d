/**
 * No function in modules/ runs over 80 lines (issue 34): a long operation is split into steps a
 * newcomer can read and test alone (validate, decide, write, notify), each named. Lengths are read
 * with TypeScript's parser (functions.ts); `bun tests/contract/functions.ts` lists the long ones.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { functionsOf, longFunctions, moduleFiles } from './functions.ts'
import { appSource, type AppSource } from './source.ts'

describe('function length in modules/', () => {
	let source: AppSource | undefined
	let fixture: AppSource | undefined
	afterAll(async () => {
		await source?.close()
		await fixture?.close()
	})
	beforeAll(async () => {
		source = await appSource()
		const dir = mkdtempSync(join(tmpdir(), 'benchline-lengths-'))
		const body = (n: number) => Array.from({ length: n }, (_, i) => `\tconst x${i} = ${i}`).join('\n')
		const files: Record<string, string> = {
			// 80 lines exactly (the limit), and 81, each counted from its first token to its closing brace.
			'a.ts': `/** A doc comment does not count. */\nexport function fits() {\n${body(78)}\n}\n\nexport const over = async () => {\n${body(79)}\n}\n`,
			// A long callback in a short chain: the callback and the function around it are both long.
			'b.ts': `export function routes(app: { get(path: string, f: () => void): unknown }) {\n\treturn app.get('/x', () => {\n${body(80)}\n\t})\n}\n`,
			'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', noEmit: true, strict: true }, include: ['*.ts'] }),
		}
		for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
		fixture = await appSource(dir, (f) => f.startsWith(dir))
	}, 120_000)

	test('every function is at most 80 lines', () => {
		const long = longFunctions(moduleFiles(source!)).map((f) => `${f.file}:${f.line} ${f.name} is ${f.lines} lines: split it into named steps`)
		expect(long).toEqual([])
	})

	test('lengths run from the first token to the closing brace; callbacks are named by the call and path they are passed to', () => {
		const byName = Object.fromEntries(fixture!.files.flatMap(functionsOf).map((f) => [f.name, f.lines]))
		expect(byName).toEqual({ fits: 80, over: 81, routes: 84, "routes/get('/x')": 82 })
		expect(longFunctions(fixture!.files).map((f) => f.name)).toEqual(['routes', "routes/get('/x')", 'over'])
	})
})
