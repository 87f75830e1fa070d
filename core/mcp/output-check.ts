/**
 * Tool results checked against their tool's output schema outside production (tests, development).
 *
 * Why: tsc holds `run()` to `Static<output>` (core/module.ts), but a value built from `any` (a row,
 * parsed JSON, a cast) can still disagree with the schema, and the SDK's server does not check
 * what it sends. An official client does, and refuses the whole answer; here the answer names
 * the tool and the path instead, and the test that called it fails (tests/mcp/output-check.test.ts).
 *
 * Each schema is compiled once, with TypeBox's compiler, when the MCP route is built: a call costs
 * one compiled check. String formats are those TypeBox's registry knows (Elysia registers `date`,
 * `date-time`, `uri`… when it loads, as it does before any route is built).
 */
import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'

/** What is wrong with a result, a few problems as `path message`; empty when it matches. */
export type ResultCheck = (value: unknown) => string[]

const compiled = new WeakMap<TSchema, ResultCheck>()

/** The check of results against `schema`, compiled on first use and kept for the life of the process. */
export function outputCheck(schema: TSchema): ResultCheck {
	let check = compiled.get(schema)
	if (!check) {
		const c = TypeCompiler.Compile(schema)
		check = (value) => {
			if (c.Check(value)) return []
			// What goes out is JSON: a value JSON turns into one that matches (an undefined optional property) is fine.
			const sent = value === undefined ? value : JSON.parse(JSON.stringify(value))
			if (c.Check(sent)) return []
			return [...c.Errors(sent)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)?.slice(0, 80) ?? 'nothing'})`)
		}
		compiled.set(schema, check)
	}
	return check
}

/** The message of a result that breaks its tool's output schema: the tool, then each problem by path. */
export const resultMismatch = (tool: string, problems: readonly string[]) =>
	`The result of ${tool} does not match its output schema (checked outside production): ${problems.join('; ')}`
