/**
 * The set-up the scale benchmarks share: a throwaway database on the local PostgreSQL server (or
 * the one REUSE names), the real app on it, and one workspace with an owner and a hiring manager,
 * each with a personal token. `cleanup()` closes everything and drops the database (KEEP=1 keeps it).
 */
import postgres from 'postgres'
import { loadConfig } from '../../core/config.ts'
import { createLogger } from '../../core/log.ts'
import { createApp, createDeps } from '../../core/main.ts'
import { openDatabase, type Database } from '../../db/client.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor, type Workspace } from '../../modules/auth/index.ts'

const env = process.env

export async function openScaleWorkspace(options: { pgMax: number }) {
	const shared = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
	const dbName = env.REUSE ?? `bl_scale_${process.pid}`
	const url = shared.replace(/\/[^/]*$/, `/${dbName}`)
	const admin = postgres(shared, { max: 1, onnotice: () => {} })
	if (!env.REUSE) await admin.unsafe(`create database ${dbName}`)
	let database: Database | undefined
	let pg: ReturnType<typeof postgres> | undefined
	const cleanup = async () => {
		await pg?.end().catch(() => {})
		await database?.close().catch(() => {})
		if (!env.KEEP && !env.REUSE) await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {})
		await admin.end()
	}
	process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))
	try {
		const config = loadConfig({ ...env, DATABASE_URL: url, BASE_URL: 'http://localhost:3000', RATE_LIMIT_PER_MINUTE: '1000000', REDIS_URL: '', LOG_LEVEL: 'warn', DEMO: 'off' })
		database = await openDatabase(config)
		const deps = await createDeps({ config, database, log: createLogger('warn') })
		const app = createApp(deps)
		pg = postgres(url, { max: options.pgMax, onnotice: () => {} })
		const db = pg
		const reusedWs = env.REUSE ? (await db<Workspace[]>`select id, slug, name from workspaces where slug like 'scale-%' limit 1`)[0] : undefined
		const ws = reusedWs ?? (await createWorkspace(deps, { slug: `scale-${process.pid}`, name: 'Scale Staffing' }))
		if (!reusedWs) {
			await addPerson(deps, operatorActor(ws), ws, { email: `owner-${process.pid}@scale.test`, name: 'Scale Owner', role: 'owner', password: 'correct horse battery' })
			await addPerson(deps, operatorActor(ws), ws, { email: `hm-${process.pid}@scale.test`, name: 'Scale HM', role: 'hiring_manager', password: 'correct horse battery' })
		}
		const person = async (role: string) => {
			const [row] = await db<{ email: string }[]>`select u.email from users u join memberships m on m.user_id = u.id where m.workspace_id = ${ws.id} and m.role = ${role} limit 1`
			const actor = await personActor(deps, ws.slug, row!.email)
			return { userId: actor.userId!, email: row!.email, token: (await createPersonalToken(deps, actor, { name: 'bench' })).token }
		}
		return { deps, app, pg: db, ws, reused: Boolean(reusedWs), owner: await person('owner'), hm: await person('hiring_manager'), cleanup }
	} catch (error) {
		await cleanup()
		throw error
	}
}
