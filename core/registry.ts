/**
 * The module registry: validates every module at start-up (reporting every problem at once),
 * orders them by `requires`, and indexes what they contribute.
 */
import type { ModuleDef, PortDef, PortKey, ToolDef, ViewDef } from './module.ts'
import { ROLES } from './actor.ts'

export class RegistryError extends Error {
	constructor(readonly problems: string[]) {
		super(`The module list is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
	}
}

export interface Registry {
	/** Modules in dependency order (a module comes after everything it requires). */
	readonly modules: readonly ModuleDef[]
	readonly tools: readonly ToolDef<any>[]
	readonly views: readonly ViewDef[]
	/** What the modules contribute to each port, in dependency order (read with `contributionsTo`). */
	readonly contributions: ReadonlyMap<PortKey, readonly unknown[]>
	readonly warnings: readonly string[]
}

/** The contributions to `port`, in dependency order (the port's own module first when it contributes). */
export function contributionsTo<T>(registry: Pick<Registry, 'contributions'>, port: PortDef<T>): readonly T[] {
	return (registry.contributions.get(port.key) ?? []) as readonly T[]
}

const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/
const VIEW_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** Validates the module list and returns it ordered; throws `RegistryError` listing every problem. */
export function buildRegistry(modules: readonly ModuleDef[]): Registry {
	const problems: string[] = []
	const warnings: string[] = []
	const byName = new Map<string, ModuleDef>()
	for (const m of modules) {
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

	const toolNames = new Set<string>()
	const tools: ToolDef<any>[] = []
	for (const m of modules)
		for (const tool of m.tools ?? []) {
			const where = `tool "${tool.name}" of module "${m.name}"`
			if (!TOOL_NAME.test(tool.name)) problems.push(`${where} must be snake_case`)
			if (toolNames.has(tool.name)) problems.push(`${where} is declared twice`)
			toolNames.add(tool.name)
			if (!declared.has(tool.permission)) problems.push(`${where} needs permission "${tool.permission}", which no module declares`)
			if (typeof tool.readOnly !== 'boolean') problems.push(`${where} must say whether it is read-only`)
			const params = tool.params as unknown as Record<string, unknown>
			if (params.type !== 'object') problems.push(`${where} parameters must be an object schema`)
			if (params.additionalProperties !== false) problems.push(`${where} parameters must refuse unknown properties (additionalProperties: false)`)
			if (params.anyOf || params.oneOf || params.allOf) problems.push(`${where} parameters must not use a top-level combinator`)
			if (!tool.description || tool.description.length < 20) problems.push(`${where} needs a description a model can act on`)
			tools.push(tool)
		}

	const views = checkViews(modules, problems)
	const ordered = orderByRequires(modules, byName, problems)
	const contributions = checkContributions(ordered, problems)
	if (problems.length) throw new RegistryError(problems)
	return { modules: ordered, tools, views, contributions, warnings }
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
				const owner = ownerOf.get(tool)
				if (!owner) problems.push(`${where} shows tool "${tool}", which no module declares`)
				else if (owner !== m.name && !(m.requires ?? []).includes(owner)) problems.push(`${where} shows tool "${tool}" of module "${owner}", which it does not require`)
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
 * the declaring module's types, and the declaring module must be there to read them).
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
			else if (owner !== m.name && !(m.requires ?? []).includes(owner)) problems.push(`module "${m.name}" contributes to port "${port.key}" of module "${owner}", which it does not require (add "${owner}" to its requires)`)
			else contributions.get(port.key)!.push(value)
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
