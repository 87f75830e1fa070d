/**
 * The operator commands: those the modules contribute, plus `seed`, which belongs to no module
 * because it runs every module's `seed` in turn. The CLI (cli.ts) and the first start's demo
 * workspace (demo.ts) both run commands from here, so neither imports the other.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from './deps.ts'
import { AppError } from './errors.ts'
import type { CommandDef, WorkspaceRef } from './module.ts'

/**
 * `seed --workspace S`: every module that has a `seed` fills its own part of the workspace, in
 * dependency order (a module seeds after those it requires, whose rows it may use); seeding twice
 * adds nothing (each module's seed checks what is there).
 */
export const seedCommand: CommandDef = {
	name: 'seed',
	usage: 'seed --workspace S [--json]',
	options: { workspace: 'string' },
	required: ['workspace'],
	async run(deps, o) {
		const ws = await workspaceBySlug(deps, String(o.workspace))
		const seeded: string[] = []
		for (const m of deps.registry.modules)
			if (m.seed) {
				await m.seed(deps, ws)
				seeded.push(m.name)
			}
		return { json: { workspaceId: ws.id, modules: seeded }, lines: [`Seeded ${ws.slug}: ${seeded.join(', ')}`] }
	},
}

/** The workspace to seed, read by its slug (the core does not import the module that owns workspaces; demo.ts reads the table so too). */
async function workspaceBySlug(deps: Pick<AppDeps, 'database'>, slug: string): Promise<WorkspaceRef> {
	const [ws] = await deps.database.rows<WorkspaceRef>(sql`select id, slug from workspaces where slug = ${slug}`)
	if (!ws) throw new AppError('NOT_FOUND', `No workspace with the slug "${slug}"`)
	return ws
}

export function allCommands(deps: Pick<AppDeps, 'registry'>): CommandDef[] {
	return [seedCommand, ...deps.registry.modules.flatMap((m) => m.commands ?? [])]
}

/**
 * Runs a command by name with options (the demo set-up and tests use the same commands as operators);
 * what it streams is collected in `output`.
 */
export async function runCommand(deps: AppDeps, name: string, options: Record<string, string | boolean>) {
	const command = allCommands(deps).find((c) => c.name === name)
	if (!command) throw new Error(`no command "${name}"`)
	command.check?.(options)
	const chunks: string[] = []
	const result = await command.run(deps, options, { write: async (chunk) => void chunks.push(chunk) })
	return { ...result, output: chunks.join('') }
}
