/**
 * `npm run db:generate [-- --name <what>]`: drizzle-kit once per owner of tables — the core
 * (`db/core-tables.ts` → `db/migrations/`) and every module with a `table.ts`
 * (`modules/<name>/table.ts` → `modules/<name>/migrations/`) — so each migration lands in the folder
 * of the module whose tables changed, with that module's own journal. No list to keep: a module is
 * found by its `table.ts`.
 *
 * Options: `--name <what>`; `--custom --module <name>` (an empty migration for hand-written SQL in
 * that module's folder; `core` for the core tables); `--check` (writes nothing: fails when a
 * table.ts differs from its folder's last snapshot, or when drizzle-kit check finds a folder
 * inconsistent — run by .ci/run).
 *
 * A `table.ts` may reference another module's tables (foreign keys); drizzle-kit reads only the
 * tables the file exports, and writes the reference by table name, so the referenced module's
 * migrations must run first (db/migrate.ts orders them so).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
const drizzleKit = resolve(root, 'node_modules/.bin/drizzle-kit')

export interface TableOwner {
	/** `core` or the module's folder name (which is its name). */
	readonly name: string
	readonly schema: string
	readonly out: string
}

/** Every owner of tables, found on disk: the core, then each `modules/<name>/table.ts`. */
export function tableOwners(): TableOwner[] {
	const owners: TableOwner[] = [{ name: 'core', schema: join(root, 'db/core-tables.ts'), out: join(root, 'db/migrations') }]
	for (const name of readdirSync(join(root, 'modules')).sort()) {
		const schema = join(root, 'modules', name, 'table.ts')
		if (existsSync(schema)) owners.push({ name, schema, out: join(root, 'modules', name, 'migrations') })
	}
	return owners
}

/**
 * drizzle-kit reads a folder's snapshots at `./<out>`, so `out` goes relative to the project (an
 * absolute one is not found). It can print an error and still exit 0: an error in its output counts.
 */
async function drizzle(args: string[]): Promise<{ code: number; output: string }> {
	const child = Bun.spawn([drizzleKit, ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
	const [stdout, stderr, exit] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	const output = (stdout + stderr).trim()
	return { code: exit || (/\berrno\b|^\s*Error\b/m.test(output) ? 1 : 0), output }
}

const sqlFiles = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.sql')) : [])

/** Runs drizzle-kit generate for one owner into `out`; returns the migration files it added. */
async function generate(owner: TableOwner, out: string, extra: string[]): Promise<{ added: string[]; output: string; code: number }> {
	const before = new Set(sqlFiles(out))
	const { code, output } = await drizzle([
		'generate',
		'--dialect',
		'postgresql',
		'--schema',
		relative(root, owner.schema),
		'--out',
		relative(root, out),
		...extra,
	])
	return { added: sqlFiles(out).filter((f) => !before.has(f)), output, code }
}

/** Fails when a table.ts changed without its migration, or a folder's snapshots are inconsistent. */
async function check(owners: TableOwner[]): Promise<number> {
	const problems: string[] = []
	await Promise.all(
		owners.map(async (owner) => {
			if (!existsSync(owner.out)) return void problems.push(`${owner.name}: no migrations folder (${relative(root, owner.out)}): run npm run db:generate`)
			const consistent = await drizzle(['check', '--dialect', 'postgresql', '--out', relative(root, owner.out)])
			if (consistent.code !== 0) problems.push(`${owner.name}: drizzle-kit check failed:\n${consistent.output}`)
			// Inside the project: drizzle-kit wants `out` relative to it.
			mkdirSync(join(root, '.tmp'), { recursive: true })
			const scratch = mkdtempSync(join(root, '.tmp', `generate-check-${owner.name}-`))
			try {
				cpSync(owner.out, scratch, { recursive: true })
				const { added, code, output } = await generate(owner, scratch, [])
				if (code !== 0) problems.push(`${owner.name}: drizzle-kit generate failed:\n${output}`)
				else if (added.length) problems.push(`${owner.name}: ${relative(root, owner.schema)} has changes no migration makes: run npm run db:generate`)
			} finally {
				rmSync(scratch, { recursive: true, force: true })
			}
		}),
	)
	for (const p of problems.sort()) console.error(p)
	console.log(problems.length ? `schema check: ${problems.length} problem(s)` : `schema check: ${owners.length} folders match their tables`)
	return problems.length ? 1 : 0
}

async function main(argv: string[]): Promise<number> {
	const value = (flag: string) => {
		const i = argv.indexOf(flag)
		return i >= 0 ? argv[i + 1] : undefined
	}
	const owners = tableOwners()
	if (argv.includes('--check')) return check(owners)
	const name = value('--name')
	const only = value('--module')
	const custom = argv.includes('--custom')
	if (custom && !only) {
		console.error('--custom needs --module <name> (core for the core tables): a hand-written migration belongs to one module')
		return 2
	}
	const chosen = only ? owners.filter((o) => o.name === only) : owners
	if (only && !chosen.length) {
		console.error(`no module "${only}" with a table.ts (known: ${owners.map((o) => o.name).join(', ')})`)
		return 2
	}
	const extra = [...(name ? ['--name', name] : []), ...(custom ? ['--custom'] : [])]
	let failed = 0
	// One at a time: each run prints what it wrote, and the output stays readable.
	for (const owner of chosen) {
		const { added, code, output } = await generate(owner, owner.out, extra)
		if (code !== 0) {
			failed++
			console.error(`${owner.name}: drizzle-kit failed\n${output}`)
		} else if (added.length) console.log(`${owner.name}: ${added.map((f) => relative(root, join(owner.out, f))).join(', ')}`)
	}
	if (!failed) console.log('db:generate: done (modules without a line had no change)')
	return failed ? 1 : 0
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
