import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { personActor } from '../modules/auth/index.ts'
import { listJobs } from '../modules/jobs/service.ts'
const config = loadConfig({ ...process.env, DATABASE_URL: process.env.URL!, BASE_URL: 'http://localhost:3000', REDIS_URL: '', LOG_LEVEL: 'warn', DEMO: 'off' })
const database = await openDatabase(config)
const deps = await createDeps({ config, database, log: createLogger('warn') })
const [o] = await database.rows<any>(sql`select w.slug, u.email from users u join memberships m on m.user_id=u.id join workspaces w on w.id=m.workspace_id where w.slug like 'scale-%' and m.role='owner'`)
const actor = await personActor(deps, o.slug, o.email)
const session = (deps.db as any).session
const cap: any[] = []
session.logger = { logQuery: (text: string, params: unknown[]) => cap.push({ text, params }) }
await listJobs(deps, actor, { limit: 25 })
session.logger = { logQuery() {} }
const pg = postgres(process.env.URL!, { max: 1 })
for (const c of cap) {
  for (let i = 0; i < 200; i++) await pg.unsafe(c.text, c.params, { prepare: true })
  const s = performance.now()
  let bytes = 0
  for (let i = 0; i < 2000; i++) { const r = await pg.unsafe(c.text, c.params, { prepare: true }); if (i === 0) bytes = JSON.stringify(r).length }
  console.log(((performance.now() - s) / 2000).toFixed(3), 'ms', bytes, 'bytes', c.text.slice(0, 90))
}
const s = performance.now(); for (let i = 0; i < 2000; i++) await listJobs(deps, actor, { limit: 25 }); console.log('listJobs service', ((performance.now() - s) / 2000).toFixed(3), 'ms')
await pg.end(); await database.close()
