/**
 * The job-facts port: facts other modules know about jobs (applicant counts, counts per stage),
 * shown by the job tools. Contributed with `contribute(jobFacts, …)` by a module requiring this one.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'

export interface JobFacts {
	readonly applicantCount?: number
	readonly applicationsByStage?: Record<string, number>
}

/** Facts keyed by job id, limited to what the actor may see. */
export type JobFactsSource = (deps: AppDeps, actor: Actor, jobIds: string[]) => Promise<Map<string, JobFacts>>

export const jobFacts = definePort<JobFactsSource>('jobs:facts', 'Facts about jobs (applicant counts, counts per stage) merged into the job tools’ results')
