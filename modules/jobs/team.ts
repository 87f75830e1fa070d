/** Hiring-team membership as other modules need it (calendars of a team, queues of "my jobs"). */
import { and, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { Db } from '../../db/client.ts'
import type { MembershipChange } from '../auth/index.ts'
import { jobs, jobTeam } from './table.ts'

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
