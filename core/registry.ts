/**
 * The module registry: validates every module at start-up (reporting every problem at once),
 * orders them by `requires`, and indexes what they contribute.
 */
import type { ModuleDef, PortDef, PortKey, PromptDef, Registry, ToolDef, ViewDef } from './module.ts'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { is } from 'drizzle-orm'
import { ROLES } from './actor.ts'
import type { AuthSpec } from './http/auth/declared.ts'

// Declared with the module contract: the app's dependencies hold it, and modules receive those.
export type { Registry }

export class RegistryError extends Error {
	constructor(readonly problems: string[]) {
		super(`The module list is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	}
}

/** A route of the app's route table, with the module that serves it (none for the core's own). */
export interface ServedRoute {
	readonly module?: string
	readonly method: string
	readonly path: string
	/** The credentials it declared (read with `declaredAuths`): exactly one is right. */
	readonly auths: readonly AuthSpec[]
}

/** The contributions to `port`, in dependency order (the port's own module first when it contributes). */
export function contributionsTo<T>(registry: Pick<Registry, 'contributions'>, port: PortDef<T>): readonly T[] {
	return (registry.contributions.get(port.key) ?? []) as readonly T[]
}

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/
/** A module's name is its folder, its permissions' prefix and its migration record's suffix: lowercase words and dashes. */
const MODULE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/
/** Names the core uses for its own records (`core`: the core tables' migration record, db/migrate.ts). */
const CORE_NAMES = new Set(['core'])
const VIEW_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** Validates the module list and returns it ordered; throws `RegistryError` listing every problem. */
export function buildRegistry(modules: readonly ModuleDef[]): Registry {
	const problems: string[] = []
	const warnings: string[] = []
	const byName = new Map<string, ModuleDef>()
	for (const m of modules) {
		if (!MODULE_NAME.test(m.name)) problems.push(`module "${m.name}" must be named in lowercase words joined by dashes (e.g. client-visits)`)
		if (CORE_NAMES.has(m.name)) problems.push(`module "${m.name}" takes a name the core uses for its own migration record; choose another`)
		if (byName.has(m.name)) problems.push(`module "${m.name}" is listed twice`)
		byName.set(m.name, m)
	}

	const declared = new Set<string>()
	for (const m of modules) {
		for (const dep of m.requires ?? []) if (!byName.has(dep)) problems.push(`module "${m.name}" requires "${dep}", which is not in the module list`)
		// Tables without their migrations would never be created; migrations without tables, never checked.
		if (Boolean(m.tables) !== Boolean(m.migrations)) problems.push(`module "${m.name}" must declare both its tables and its migrations folder, or neither`)
		for (const p of m.permissions ?? []) {
			if (!p.key.startsWith(`${m.name}:`)) problems.push(`permission "${p.key}" of module "${m.name}" must start with "${m.name}:"`)
			if (declared.has(p.key)) problems.push(`permission "${p.key}" is declared twice`)
			declared.add(p.key)
			for (const role of p.grantedTo) if (!ROLES.includes(role)) problems.push(`permission "${p.key}" grants unknown role "${role}"`)
			if (p.grantedTo.length === 0 && !p.grantable) warnings.push(`permission "${p.key}" is granted to no role`)
		}
	}

	const used = new Set<string>()
	const uses = (key: string, where: string) => {
		if (!declared.has(key)) problems.push(`${where} needs permission "${key}", which no module declares`)
		used.add(key)
	}
	for (const m of modules) {
		for (const link of m.nav ?? []) if (link.permission) uses(link.permission, `nav link "${link.href}" of module "${m.name}"`)
		for (const section of m.pageSections ?? [])
			if (section.permission) uses(section.permission, `page section of module "${m.name}" on the "${section.page}" page`)
		for (const key of m.checks ?? []) uses(key, `module "${m.name}" checks with can() and`)
	}

	const toolNames = new Set<string>()
	const tools: ToolDef<any>[] = []
	for (const m of modules)
		for (const tool of m.tools ?? []) {
			const where = `tool "${tool.name}" of module "${m.name}"`
			if (!TOOL_NAME.test(tool.name)) problems.push(`${where} must be snake_case`)
			if (toolNames.has(tool.name)) problems.push(`${where} is declared twice`)
			toolNames.add(tool.name)
			uses(tool.permission, where)
			if (typeof tool.readOnly !== 'boolean') problems.push(`${where} must say whether it is read-only`)
			const params = tool.params as unknown as Record<string, unknown>
			if (params.type !== 'object') problems.push(`${where} parameters must be an object schema`)
			if (params.additionalProperties !== false) problems.push(`${where} parameters must refuse unknown properties (additionalProperties: false)`)
			if (params.anyOf || params.oneOf || params.allOf) problems.push(`${where} parameters must not use a top-level combinator`)
			if (!tool.description || tool.description.length < 20) problems.push(`${where} needs a description a model can act on`)
			tools.push(tool)
		}

	checkMeasures(modules, problems)
	checkReferences(modules, byName, problems)
	const views = checkViews(modules, problems)
	const prompts = checkPrompts(modules, problems)
	const ordered = orderByRequires(modules, byName, problems)
	const contributions = checkContributions(ordered, problems)
	if (problems.length) throw new RegistryError(problems)
	return { modules: ordered, tools, views, prompts, contributions, warnings, permissionsUsed: used }
}

/**
 * Checks the app's route table against the registry, once the routes are built (they need the
 * app's dependencies, so `buildApp` calls this): a module's routes live under the paths it
 * declares, every route declares one credential (its macro: `auth`, `session`, `vendor`,
 * `vendorKey` or `mcp`, read back with `declaredAuths`), a `session: { permission }` is one some module declares
 * (otherwise it answers 403 to everyone), and every declared permission is used by a route, a
 * tool, a nav link, a page section or a module's `checks` (otherwise granting it changes
 * nothing). Returns the problems, one per route or key.
 */
export function checkRoutes(registry: Registry, routes: readonly ServedRoute[]): string[] {
	const problems: string[] = []
	const declared = new Map<string, string>()
	for (const m of registry.modules) for (const p of m.permissions ?? []) declared.set(p.key, m.name)
	const used = new Set(registry.permissionsUsed)
	const pathsOf = new Map(registry.modules.map((m) => [m.name, m.paths ?? []]))
	for (const r of routes) {
		const where = `route ${r.method} ${r.path}${r.module ? ` of module "${r.module}"` : ''}`
		if (r.module && !pathsOf.get(r.module)!.some((p) => underPath(r.path, p)))
			problems.push(`${where} is outside the paths the module declares (${pathsOf.get(r.module)!.join(', ') || 'none'})`)
		// One credential each: two would both run, and which one the route meant could not be read from it.
		if (r.auths.length !== 1) problems.push(`${where} ${r.auths.length ? 'declares more than one credential' : 'does not declare auth'}`)
		for (const auth of r.auths)
			if (typeof auth === 'object') {
				if (!declared.has(auth.permission)) problems.push(`${where} needs permission "${auth.permission}", which no module declares`)
				used.add(auth.permission)
			}
	}
	for (const [key, module] of declared)
		if (!used.has(key)) problems.push(`permission "${key}" of module "${module}" is used by no route, tool, nav link, page section or can() check`)
	return problems
}

/**
 * Whether a route lives under a declared path: the path itself or below it; a `*` in the declared
 * path stands for the characters of one segment (`/*.txt`: a text file at the root, named at start-up).
 */
export function underPath(route: string, declared: string): boolean {
	if (!declared.includes('*')) return route === declared || route.startsWith(`${declared}/`)
	const pattern = declared
		.split('*')
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
		.join('[^/:*]+')
	return new RegExp(`^${pattern}$`).test(route)
}

/** Queue and pool names are metric label values: snake_case, each declared once. */
function checkMeasures(modules: readonly ModuleDef[], problems: string[]) {
	for (const kind of ['queues', 'pools'] as const) {
		const seen = new Map<string, string>()
		for (const m of modules)
			for (const { name } of m[kind] ?? []) {
				const where = `${kind === 'queues' ? 'queue' : 'pool'} "${name}" of module "${m.name}"`
				if (!TOOL_NAME.test(name)) problems.push(`${where} must be snake_case`)
				if (seen.has(name)) problems.push(`${where} is also declared by module "${seen.get(name)}"`)
				seen.set(name, m.name)
			}
	}
}

/** Why module `m` may not name `tool` (a view shows it, a prompt uses it), or null: it must be its own or a required module's. */
function toolOwnerProblem(ownerOf: ReadonlyMap<string, string>, m: ModuleDef, tool: string): string | null {
	const owner = ownerOf.get(tool)
	if (!owner) return `tool "${tool}", which no module declares`
	if (owner !== m.name && !(m.requires ?? []).includes(owner)) return `tool "${tool}" of module "${owner}", which it does not require`
	return null
}

/** A prompt names tools of its own module or of a module it requires, has a unique snake_case name and string arguments. */
function checkPrompts(modules: readonly ModuleDef[], problems: string[]): PromptDef<any>[] {
	const ownerOf = new Map<string, string>()
	for (const m of modules) for (const tool of m.tools ?? []) ownerOf.set(tool.name, m.name)
	const prompts: PromptDef<any>[] = []
	const names = new Set<string>()
	for (const m of modules)
		for (const prompt of m.prompts ?? []) {
			const where = `prompt "${prompt.name}" of module "${m.name}"`
			if (!TOOL_NAME.test(prompt.name)) problems.push(`${where} must be snake_case`)
			if (names.has(prompt.name)) problems.push(`${where} is declared twice`)
			names.add(prompt.name)
			if (!prompt.title?.trim() || !prompt.description?.trim()) problems.push(`${where} needs a title and a description`)
			const params = prompt.params as unknown as { additionalProperties?: boolean; properties?: Record<string, { type?: string }> }
			if (params.additionalProperties !== false) problems.push(`${where} arguments must refuse unknown properties (additionalProperties: false)`)
			for (const [arg, schema] of Object.entries(params.properties ?? {}))
				if (schema.type !== 'string') problems.push(`${where} argument "${arg}" must be a string (prompt arguments are)`)
			if (!prompt.tools.length) problems.push(`${where} uses no tool`)
			for (const tool of prompt.tools) {
				const problem = toolOwnerProblem(ownerOf, m, tool)
				if (problem) problems.push(`${where} uses ${problem}`)
			}
			prompts.push(prompt)
		}
	return prompts
}

/**
 * A view shows tools of its own module or of a module it requires (as a page section does), and a
 * tool is shown by one view at most: its `_meta.ui.resourceUri` names exactly one.
 */
function checkViews(modules: readonly ModuleDef[], problems: string[]): ViewDef[] {
	const ownerOf = new Map<string, string>()
	for (const m of modules) for (const tool of m.tools ?? []) ownerOf.set(tool.name, m.name)
	const views: ViewDef[] = []
	const names = new Set<string>()
	const shownBy = new Map<string, string>()
	for (const m of modules)
		for (const view of m.views ?? []) {
			const where = `view "${view.name}" of module "${m.name}"`
			if (!VIEW_NAME.test(view.name)) problems.push(`${where} must be lowercase words joined by dashes`)
			if (names.has(view.name)) problems.push(`${where} is declared twice`)
			names.add(view.name)
			if (!view.title?.trim() || !view.description?.trim()) problems.push(`${where} needs a title and a description`)
			if (!view.tools.length) problems.push(`${where} shows no tool`)
			for (const tool of view.tools) {
				const problem = toolOwnerProblem(ownerOf, m, tool)
				if (problem) problems.push(`${where} shows ${problem}`)
				const other = shownBy.get(tool)
				if (other) problems.push(`tool "${tool}" is shown by two views: "${other}" and "${view.name}"`)
				shownBy.set(tool, view.name)
			}
			views.push(view)
		}
	return views
}

/**
 * A port is declared by the module its key names, once; a module contributes only to ports that a
 * module in the list declares, and only to its own or to those of a module it requires (it builds
 * the declaring module's types, and the declaring module must be there to read them); a `single`
 * port takes one contribution at most.
 */
function checkContributions(ordered: readonly ModuleDef[], problems: string[]): Map<PortKey, unknown[]> {
	const declaredBy = new Map<PortKey, string>()
	for (const m of ordered)
		for (const port of m.ports ?? []) {
			if (!port.key.startsWith(`${m.name}:`)) problems.push(`port "${port.key}" of module "${m.name}" must start with "${m.name}:"`)
			const other = declaredBy.get(port.key)
			if (other) problems.push(`port "${port.key}" is declared twice (modules "${other}" and "${m.name}")`)
			declaredBy.set(port.key, m.name)
		}
	const contributions = new Map<PortKey, unknown[]>([...declaredBy.keys()].map((key) => [key, []]))
	for (const m of ordered)
		for (const { port, value } of m.contributes ?? []) {
			const owner = declaredBy.get(port.key)
			if (!owner) problems.push(`module "${m.name}" contributes to port "${port.key}", which no module in the list declares`)
			else if (owner !== m.name && !(m.requires ?? []).includes(owner))
				problems.push(`module "${m.name}" contributes to port "${port.key}" of module "${owner}", which it does not require (add "${owner}" to its requires)`)
			else contributions.get(port.key)!.push(value)
		}
	for (const m of ordered)
		for (const port of m.ports ?? []) {
			const by = ordered.filter((c) => c.contributes?.some((x) => x.port.key === port.key)).map((c) => `"${c.name}"`)
			if (port.single && by.length > 1) problems.push(`port "${port.key}" takes one contribution, but modules ${by.join(' and ')} contribute to it`)
		}
	return contributions
}

function orderByRequires(modules: readonly ModuleDef[], byName: Map<string, ModuleDef>, problems: string[]): ModuleDef[] {
	const ordered: ModuleDef[] = []
	const state = new Map<string, 'visiting' | 'done'>()
	const visit = (m: ModuleDef, trail: string[]) => {
		const s = state.get(m.name)
		if (s === 'done') return
		if (s === 'visiting') {
			problems.push(`modules require each other in a cycle: ${[...trail, m.name].join(' -> ')}`)
			return
		}
		state.set(m.name, 'visiting')
		for (const dep of m.requires ?? []) {
			const d = byName.get(dep)
			if (d) visit(d, [...trail, m.name])
		}
		state.set(m.name, 'done')
		ordered.push(m)
	}
	for (const m of modules) visit(m, [])
	return ordered
}

/**
 * A table that points at another module's table (a foreign key) makes its module depend on that one's
 * schema: the dependency is declared, in `requires` when the module also calls it, else in
 * `references` (outbox's rows point at auth's workspaces while auth calls outbox). Migrations are
 * ordered by the keys themselves (db/migrate.ts); this keeps the dependency visible in the definition.
 */
function checkReferences(modules: readonly ModuleDef[], byName: ReadonlyMap<string, ModuleDef>, problems: string[]) {
	const tablesOf = (m: ModuleDef) => Object.values(m.tables ?? {}).filter((v): v is PgTable => is(v, PgTable))
	const ownerOf = new Map<PgTable, ModuleDef>()
	for (const m of modules) for (const table of tablesOf(m)) ownerOf.set(table, m)
	for (const m of modules) {
		for (const name of m.references ?? []) if (!byName.has(name)) problems.push(`module "${m.name}" references "${name}", which is not in the module list`)
		const declared = new Set([...(m.requires ?? []), ...(m.references ?? [])])
		for (const table of tablesOf(m))
			for (const fk of getTableConfig(table).foreignKeys) {
				const target = fk.reference().foreignTable
				const owner = ownerOf.get(target)
				if (owner && owner !== m && !declared.has(owner.name))
					problems.push(
						`module "${m.name}": table "${getTableConfig(table).name}" points at "${getTableConfig(target).name}" of module "${owner.name}"; list "${owner.name}" in its requires (if it calls it) or its references`,
					)
			}
	}
}
