/**
 * A job's hiring team: who is on it, as other modules need it (calendars of a team, queues of "my
 * jobs"), and changing it after the job was made (its creator joins it then, `createJob`).
 *
 * Rules: the team is changed by whoever may publish or close the job (`jobs:set_status`: owners and
 * admins), in their own workspace only; only a current member whose role is hiring manager is added
 * (recruiters and admins see every job already; a viewer sees no applicants), as a hiring manager;
 * anyone on the team can be taken off. Adding someone already on it, or taking off someone not on
 * it, changes nothing and logs nothing (a form sent twice); each change is one activity line.
 */
import { and, eq, inArray } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { AppError, forbidden, invalid } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { recordActivity } from '../activity/index.ts'
import type { ActivityChange } from '../../core/module.ts'
import { textOf } from '../../core/untrusted.ts'
import { listPeople, lockedMemberRole, userNames, type MembershipChange } from '../auth/index.ts'
import { SET_STATUS } from './service.ts'
import { jobs, jobTeam } from './table.ts'

/** The permission that changes a job's hiring team: the one that publishes and closes it. */
export const CHANGE_TEAM = SET_STATUS
const NOT_A_HIRING_MANAGER = 'must be a hiring manager in this workspace'

/** Ids of the jobs of the workspace on whose hiring team the person is. */
export async function teamJobIds(deps: AppDeps, workspaceId: string, userId: string): Promise<string[]> {
	const rows = await deps.db
		.select({ id: jobTeam.jobId })
		.from(jobTeam)
		.innerJoin(jobs, eq(jobs.id, jobTeam.jobId))
		.where(and(eq(jobTeam.userId, userId), eq(jobs.workspaceId, workspaceId)))
	return rows.map((r) => r.id)
}

/** The person and everyone who shares a hiring team with them in the workspace. */
export async function teammateIds(deps: AppDeps, workspaceId: string, userId: string): Promise<string[]> {
	const jobIds = await teamJobIds(deps, workspaceId, userId)
	if (!jobIds.length) return [userId]
	const rows = await deps.db.selectDistinct({ userId: jobTeam.userId }).from(jobTeam).where(inArray(jobTeam.jobId, jobIds))
	return [...new Set([userId, ...rows.map((r) => r.userId)])]
}

/** The people on a job's hiring team. */
export async function jobTeamIds(deps: AppDeps, workspaceId: string, jobId: string): Promise<string[]> {
	const rows = await deps.db
		.select({ userId: jobTeam.userId })
		.from(jobTeam)
		.innerJoin(jobs, eq(jobs.id, jobTeam.jobId))
		.where(and(eq(jobTeam.jobId, jobId), eq(jobs.workspaceId, workspaceId)))
	return rows.map((r) => r.userId)
}

/**
 * A person's hiring teams end with their place in the workspace (the membership port): someone who
 * leaves is taken off every team there, so an invitation accepted later brings back none of those
 * jobs unasked; someone whose new role sees no applicants (a viewer) is taken off too. Other roles
 * stay on their teams (a job's creator joins its team whatever their role).
 */
export async function leaveTeamsWithMembership(deps: AppDeps, tx: Db, change: MembershipChange): Promise<void> {
	if (change.role && deps.permissions.roleHas(change.role, 'candidates:read')) return
	const theirJobs = tx.select({ id: jobs.id }).from(jobs).where(eq(jobs.workspaceId, change.workspaceId))
	await tx.delete(jobTeam).where(and(eq(jobTeam.userId, change.userId), inArray(jobTeam.jobId, theirJobs)))
}

/** Refuses unless the actor may change the team, and the job is one of their workspace's (absent: not found, as elsewhere). */
async function requireTeamJob(deps: AppDeps, tx: Db, actor: Actor, jobId: string): Promise<void> {
	if (!deps.permissions.can(actor, CHANGE_TEAM)) throw forbidden('Only owners and admins change a job’s hiring team')
	const [job] = await tx
		.select({ id: jobs.id })
		.from(jobs)
		.where(and(eq(jobs.id, jobId), eq(jobs.workspaceId, actor.workspaceId)))
	if (!job) throw new AppError('NOT_FOUND', 'No job with this id')
}

/** Puts a hiring manager of the workspace on the job's hiring team; `changed` is false when they were on it. */
export async function addHiringManager(deps: AppDeps, actor: Actor, jobId: string, userId: string): Promise<{ changed: boolean }> {
	return deps.db.transaction(async (tx) => {
		await requireTeamJob(deps, tx, actor, jobId)
		// Someone of another workspace, or none, is answered as someone who is not a hiring manager here.
		if ((await lockedMemberRole(tx, actor.workspaceId, userId)) !== 'hiring_manager') throw invalid([{ field: 'userId', message: NOT_A_HIRING_MANAGER }])
		const added = await tx.insert(jobTeam).values({ jobId, userId, teamRole: 'hiring_manager' }).onConflictDoNothing().returning({ userId: jobTeam.userId })
		if (!added.length) return { changed: false }
		await recordActivity(tx, actor, { action: 'job.team_member_added', targetType: 'job', targetId: jobId, detail: { userId, teamRole: 'hiring_manager' } })
		return { changed: true }
	})
}

/** Takes a person off the job's hiring team; `changed` is false when they were not on it. */
export async function removeFromTeam(deps: AppDeps, actor: Actor, jobId: string, userId: string): Promise<{ changed: boolean }> {
	return deps.db.transaction(async (tx) => {
		await requireTeamJob(deps, tx, actor, jobId)
		const [gone] = await tx
			.delete(jobTeam)
			.where(and(eq(jobTeam.jobId, jobId), eq(jobTeam.userId, userId)))
			.returning({ teamRole: jobTeam.teamRole })
		if (!gone) return { changed: false }
		await recordActivity(tx, actor, { action: 'job.team_member_removed', targetType: 'job', targetId: jobId, detail: { userId, teamRole: gone.teamRole } })
		return { changed: true }
	})
}

/** The workspace's hiring managers who are not on the team yet (`onTeam`): whom the job's page offers to add. */
export async function hiringManagersOffTeam(deps: AppDeps, workspaceId: string, onTeam: readonly string[]) {
	const people = await listPeople(deps.db, workspaceId)
	return people.filter((p) => p.role === 'hiring_manager' && !onTeam.includes(p.userId)).map((p) => ({ userId: p.userId, name: p.name }))
}

/**
 * A team change in the activity log, in words: "… changed the hiring team of the job Java Developer
 * by adding Jamie Fox" (the person's name of today; a line whose person is unknown adds nothing).
 */
const teamWords = (action: string, verb: string): ActivityChange => ({
	action,
	async words(deps, _workspaceId, details) {
		const ids = details.map((d) => (typeof d?.userId === 'string' ? d.userId : null))
		// Words of the log, not text for a reader: whose it is does not matter (`textOf`).
		const names = await userNames(
			deps.db,
			ids.filter((id): id is string => id !== null),
			{},
		)
		return ids.map((id) => {
			const name = id === null ? '' : textOf(names.get(id) ?? '')
			return name ? `by ${verb} ${name}` : null
		})
	},
})
export const teamChangeWords = [teamWords('job.team_member_added', 'adding'), teamWords('job.team_member_removed', 'taking off')]
