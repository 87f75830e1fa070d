/**
 * The analytics page's numbers: the careers summary of `get_analytics_summary` (same period, same
 * counts, same insights; jobs and sources ranked ten deep instead of five), the careers traffic per
 * day, and the applications of the period followed through the pipeline with their waiting times
 * (candidates module). Every part is limited to what the person may see, as the tool is.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { applicationFunnel, type ApplicationFunnel } from '../candidates/index.ts'
import { careersPerDay, careersSummary, periodOf, type CareersSummary, type DayCounts, type Period } from './service.ts'

/** How many jobs and sources the page ranks. */
export const TOP = 10

export interface Dashboard {
	period: Period
	careers: CareersSummary
	days: DayCounts[]
	funnel: ApplicationFunnel
}

export async function analyticsDashboard(deps: AppDeps, actor: Actor, range: 7 | 30): Promise<Dashboard> {
	const period = periodOf(deps, range)
	const [careers, days, funnel] = await Promise.all([
		careersSummary(deps, actor, period, TOP),
		careersPerDay(deps, actor, period),
		applicationFunnel(deps, actor, period),
	])
	return { period, careers, days, funnel }
}
