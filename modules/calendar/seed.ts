/**
 * Demo busy times for each person: a daily stand-up, a weekly pipeline review, client calls and
 * the odd day out, over the next three weeks. The demo feeds point at an address that is never
 * read (their next refresh is far away); a person can set a real one on the settings page.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { listPeople } from '../auth/index.ts'
import { storedAddress } from './feed-secret.ts'
import { calendarBusy, calendarFeeds } from './table.ts'

const DAY = 86_400_000
const HOUR = 3_600_000

export async function seedCalendar(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const today = new Date(new Date().toISOString().slice(0, 10)).getTime()
	for (const p of await listPeople(deps.db, ws.id)) {
		if (p.role === 'viewer') continue
		const rnd = seededRandom(`calendar:${ws.id}:${p.userId}`)
		const blocks: { start: number; end: number; allDay: boolean }[] = []
		for (let d = -2; d < 21; d++) {
			const day = today + d * DAY
			const weekday = new Date(day).getUTCDay()
			if (weekday === 0 || weekday === 6) continue
			if (rnd.chance(0.04)) {
				blocks.push({ start: day, end: day + DAY, allDay: true })
				continue
			}
			// Times in UTC for a US Central team: 9:30 local stand-up is 14:30 / 15:30 UTC.
			blocks.push({ start: day + 14.5 * HOUR, end: day + 14.75 * HOUR, allDay: false })
			if (weekday === 1) blocks.push({ start: day + 16 * HOUR, end: day + 17 * HOUR, allDay: false })
			for (let i = rnd.int(0, 2); i > 0; i--) {
				const start = day + (15 + rnd.int(0, 7)) * HOUR + rnd.pick([0, 30]) * 60_000
				blocks.push({ start, end: start + rnd.pick([30, 45, 60]) * 60_000, allDay: false })
			}
		}
		await deps.db
			.insert(calendarFeeds)
			.values({
				workspaceId: ws.id,
				userId: p.userId,
				...(await storedAddress(deps.secret, ws.id, p.userId, `https://calendar.example.com/ical/${seededId('feed', ws.id, p.userId).slice(5)}/basic.ics`)),
				status: 'ok',
				lastFetchedAt: new Date(),
				busyCount: blocks.length,
				nextRefreshAt: new Date(Date.now() + 3650 * DAY),
			})
			.onConflictDoNothing()
		await deps.db
			.insert(calendarBusy)
			.values(
				blocks.map((b, i) => ({
					id: seededId('busy', ws.id, `${p.userId}:${i}`),
					workspaceId: ws.id,
					userId: p.userId,
					startsAt: new Date(b.start),
					endsAt: new Date(b.end),
					allDay: b.allDay,
				})),
			)
			.onConflictDoNothing()
	}
}
