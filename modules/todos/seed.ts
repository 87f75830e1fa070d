/**
 * Demo to-dos for each person: follow-ups on their candidates spread over the coming days (a few
 * overdue, some without a due time), and a few already done. Hiring managers get theirs on the
 * jobs of their hiring teams.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { listPeople } from '../auth/index.ts'
import { workspaceApplications } from '../candidates/index.ts'
import { teamJobIds } from '../jobs/index.ts'
import { todos } from './table.ts'

const TASKS: [string, string | null][] = [
	['Call {name} to confirm the rate and availability', 'Client range is tight; check C2C vs W2.'],
	['Send {name}’s profile to the client', null],
	['Follow up with {name} after the client interview', 'Ask for feedback on the system design round.'],
	['Check two references for {name}', null],
	['Prepare {name} for the client interview', 'Share the interview format and the team’s stack.'],
	['Ask {name} for an updated résumé', 'Current one does not show the last project.'],
	['Confirm {name}’s start date with the vendor', null],
]

const HOUR = 3_600_000

export async function seedTodos(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const apps = await workspaceApplications(deps, ws.id)
	if (!apps.length) return
	const now = Date.now()
	const rows: (typeof todos.$inferInsert)[] = []
	for (const p of await listPeople(deps.db, ws.id)) {
		if (p.role === 'viewer') continue
		const rnd = seededRandom(`todos:${ws.id}:${p.userId}`)
		const mine = p.role === 'hiring_manager' ? new Set(await teamJobIds(deps, ws.id, p.userId)) : null
		const pool = mine ? apps.filter((a) => mine.has(a.jobId)) : apps.filter((a) => a.stageKey !== 'applied')
		for (let i = 0; i < 9 && pool.length; i++) {
			const app = rnd.pick(pool)
			const [task, notes] = rnd.pick(TASKS)
			const first = app.candidate.name.split(' ')[0]!
			const kind = i < 2 ? 'overdue' : i < 6 ? 'due' : i < 8 ? 'undated' : 'done'
			// Due times on the hour, in US business hours (UTC 14:00 to 22:00).
			const day = Math.floor(now / 86_400_000) * 86_400_000
			const dueAt =
				kind === 'overdue'
					? new Date(day - rnd.int(1, 3) * 86_400_000 + rnd.int(14, 21) * HOUR)
					: kind === 'due' || kind === 'done'
						? new Date(day + rnd.int(0, 9) * 86_400_000 + rnd.int(14, 21) * HOUR)
						: null
			rows.push({
				id: seededId('todo', ws.id, `${p.userId}:${i}`),
				workspaceId: ws.id,
				assigneeUserId: p.userId,
				createdByUserId: p.userId,
				candidateId: app.candidateId,
				applicationId: app.id,
				jobId: app.jobId,
				title: task.replace('{name}', first),
				notes,
				dueAt,
				doneAt: kind === 'done' ? new Date(now - rnd.int(1, 48) * HOUR) : null,
				source: 'person',
				createdAt: new Date(now - rnd.int(1, 14) * 86_400_000),
			})
		}
	}
	if (rows.length) await deps.db.insert(todos).values(rows).onConflictDoNothing()
}
