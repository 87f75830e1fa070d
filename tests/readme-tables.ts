/**
 * The README's tables of modules and MCP tools, written from the registry so they cannot drift
 * from the code: `npm run docs:tables` rewrites the parts between the `<!-- tables:… -->` markers
 * of README.md, and tests/readme-tables.test.ts fails when the README differs from what this
 * writes. Everything else in the README is written by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ModuleDef } from '../core/module.ts'
import { buildRegistry } from '../core/registry.ts'
import { modules } from '../modules/index.ts'

export const README = resolve(import.meta.dir, '../README.md')

const code = (s: string) => `\`${s}\``
const cell = (s: string) => s.replace(/\|/g, '\\|')

function toolTable(list: readonly ModuleDef[]): string {
	const rows = list
		.filter((m) => m.tools?.length)
		.map((m) => {
			const tools = m.tools!
			const read = tools.filter((t) => t.readOnly).map((t) => code(t.name))
			const write = tools.filter((t) => !t.readOnly).map((t) => `${code(t.name)} (${code(t.permission)})`)
			return `| ${code(m.name)} | ${read.join(', ')} | ${write.join(', ')} |`
		})
	return ['| Module | Read | Write (permission) |', '|---|---|---|', ...rows].join('\n')
}

function moduleTable(list: readonly ModuleDef[]): string {
	const rows = list.map((m) => {
		const permissions = (m.permissions ?? []).map((p) => `${code(p.key)}${p.grantable ? ' (grantable)' : ''}`)
		const contributes = [...new Set((m.contributes ?? []).map((c) => c.port.key))]
		return `| ${code(m.name)} | ${cell(m.description)} | ${(m.requires ?? []).map(code).join(', ')} | ${permissions.join(', ')} | ${(m.paths ?? []).map(code).join(', ')} | ${(m.ports ?? []).map((p) => code(p.key)).join(', ')} | ${contributes.map(code).join(', ')} |`
	})
	return ['| Module | What it does | Requires | Permissions | Paths | Ports | Contributes to |', '|---|---|---|---|---|---|---|', ...rows].join('\n')
}

/** The event types each module declares (contributions to the events module's `events:type` port). */
function eventTable(list: readonly ModuleDef[]): string {
	const rows = list.flatMap((m) =>
		(m.contributes ?? [])
			.filter((c) => c.port.key === 'events:type')
			.map((c) => {
				const event = c.value as { type: string; description: string; data: { properties: Record<string, unknown> } }
				return `| ${code(event.type)} | ${code(m.name)} | ${cell(event.description)} | ${Object.keys(event.data.properties).map(code).join(', ')} |`
			}),
	)
	return ['| Event | Declared by | Written when | Data |', '|---|---|---|---|', ...rows].join('\n')
}

/** The generated tables, by marker name. */
export function tables(list: readonly ModuleDef[] = buildRegistry(modules).modules): Record<string, string> {
	return { modules: moduleTable(list), tools: toolTable(list), events: eventTable(list) }
}

/** The README with each marked part replaced by its table; throws when a marker is missing. */
export function withTables(readme: string, generated: Record<string, string>): string {
	let out = readme
	for (const [name, table] of Object.entries(generated)) {
		const start = `<!-- tables:${name} (written by npm run docs:tables) -->`
		const end = `<!-- /tables:${name} -->`
		const from = out.indexOf(start)
		const to = out.indexOf(end)
		if (from < 0 || to < from) throw new Error(`README.md has no ${start} … ${end} part`)
		out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`
	}
	return out
}

if (import.meta.main) {
	writeFileSync(README, withTables(readFileSync(README, 'utf8'), tables()))
	console.log('README.md: module and tool tables written from the registry')
}
