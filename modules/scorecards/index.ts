/**
 * Scorecards: interviewers rate an application on the job's attributes (its must-haves unless set
 * for the job), recommend (Strong no, No, Yes, Strong yes) and write notes; the application page and
 * `get_application` show them beside completed AI video interviews, which count as scorecards too.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { contribute, defineModule } from '../../core/module.ts'
import { applicationDetails, candidateData, type CandidateDataSource } from '../candidates/index.ts'
import { applicationScorecardsSection, jobScorecardSection } from './pages.ts'
import { scorecardRoutes } from './routes.ts'
import { scorecardsOf } from './service.ts'
import { seedScorecards } from './seed.ts'
import * as tables from './table.ts'
import { scorecardsData } from './data.ts'

export { attributesOf, saveScorecard, scorecardsOf, setAttributes, summarize, RECOMMENDATION_LABELS, type Recommendation } from './service.ts'

/** For the retention rule: a scorecard of one of their applications written or changed since `since`. */
const scorecardsActiveSince: CandidateDataSource['activeSince'] = async (deps: AppDeps, workspaceId, ids, since) => {
	const rows = await deps.database.rows<{ id: string }>(
		sql`select distinct a.candidate_id as id from scorecards s join applications a on a.id = s.application_id
		where s.workspace_id = ${workspaceId} and a.candidate_id = any(${sql.param([...ids])}::text[])
			and greatest(s.created_at, s.updated_at) >= ${since.toISOString()}::timestamptz`,
	)
	return new Set(rows.map((r) => r.id))
}

export default defineModule({
	name: 'scorecards',
	description: 'Interviewers’ scorecards of applications: a rating per attribute, an overall recommendation and notes.',
	requires: ['auth', 'audit', 'activity', 'jobs', 'candidates', 'interviews'],
	checks: ['scorecards:write'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'scorecards:write',
			description: 'Write scorecards and set a job’s scorecard attributes (hiring managers: their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	routes: scorecardRoutes,
	paths: ['/applications', '/jobs'],
	contributes: [contribute(candidateData, { ...scorecardsData, activeSince: scorecardsActiveSince }), contribute(applicationDetails, scorecardsOf)],
	seed: seedScorecards,
	pageSections: [applicationScorecardsSection, jobScorecardSection],
	activityLabels: {
		'scorecard.added': 'added a scorecard to',
		'scorecard.updated': 'changed their scorecard of',
		'scorecard.attributes_set': 'set the scorecard attributes of',
	},
})
