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

/**
 * Operations another module serves under `/api/v1` with the vendor's key (its webhooks): they join
 * the OpenAPI description and the docs page of the Job Publish API, which this module serves.
 */
export interface ApiOperations {
	/** OpenAPI path items, keyed by the path under `/api/v1` (e.g. `/webhooks`). */
	readonly paths: Readonly<Record<string, unknown>>
	/** Schemas the path items reference (`#/components/schemas/<name>`); `Error` is the API's own. */
	readonly schemas: Readonly<Record<string, unknown>>
	/**
	 * One line per operation for the docs page, starting with its method and path (shown as code), e.g.
	 * `POST /webhooks adds an endpoint…`; inline code in Markdown's backticks, as in OpenAPI's texts (doc-text.ts).
	 */
	readonly docs: readonly string[]
}

export const apiOperations = definePort<ApiOperations>(
	'jobs:api-operations',
	'Operations served under /api/v1 with the vendor’s key, for the API’s OpenAPI description and docs page',
)
