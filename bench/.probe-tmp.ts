import { sql } from 'drizzle-orm'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { personActor } from '../modules/auth/index.ts'
import { search } from '../modules/search/service.ts'
const url = process.env.URL!
const config = loadConfig({ ...process.env, DATABASE_URL: url, BASE_URL: 'http://localhost:3000', REDIS_URL: '', LOG_LEVEL: 'warn', DEMO: 'off' })
const database = await openDatabase(config)
const deps = await createDeps({ config, database, log: createLogger('warn') })
const [o] = await database.rows<any>(sql`select w.slug, u.email from users u join memberships m on m.user_id=u.id join workspaces w on w.id=m.workspace_id where w.slug like 'scale-%' and m.role='owner'`)
const actor = await personActor(deps, o.slug, o.email)
const session = (deps.db as any).session
for (const q of (process.env.QS ?? 'java|python developer|kubernetes terraform|snowflake|salesforce apex|austin|guidewire|data engineer|react node|oracle dba').split('|')) {
  const captured: any[] = []
  const prev = session.logger
  session.logger = { logQuery: (text: string, params: unknown[]) => captured.push({ text, params }) }
  const s = performance.now()
  await search(deps, actor, q)
  const total = performance.now() - s
  session.logger = prev
  const parts: string[] = []
  for (const c of captured) {
    const chunks = c.text.split(/\$(\d+)/).map((p: string, i: number) => (i % 2 ? sql`${c.params[Number(p) - 1]}` : sql.raw(p)))
    const rows = await database.rows<any>(sql.join([sql.raw('explain (analyze, summary on) '), ...chunks], sql.raw('')))
    const plan = rows.map((r) => r['QUERY PLAN'])
    parts.push(`${plan.at(-1)} :: ${c.text.slice(0, 60).replace(/\s+/g, ' ')}`)
    if (process.env.PLAN) console.log(plan.join('\n'))
  }
  console.log(`${q}: ${total.toFixed(1)} ms`); for (const p of parts) console.log('   ', p)
}
await database.close()
