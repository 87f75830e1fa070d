/**
 * The application-details port: what other modules know about applications (messages, interviews,
 * vendor submission status), merged into the application tools' results (`get_application`,
 * `get_job_applicants`). The shapes are declared in model.ts, where those tools describe their results.
 * Contributed with `contribute(applicationDetails, …)` by a module requiring this one.
 */
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { definePort } from '../../core/module.ts'

/**
 * Keyed by application id; each value's keys are added to that application as they are. Only
 * called with ids the actor can reach; a module leaves out what the actor's role may not see.
 */
export type ApplicationDetailsSource = (deps: AppDeps, actor: Actor, applicationIds: string[]) => Promise<Map<string, Record<string, unknown>>>

export const applicationDetails = definePort<ApplicationDetailsSource>(
	'candidates:application-details',
	'Facts about applications (messages, interviews, vendor submission) merged into the application tools’ results',
)
