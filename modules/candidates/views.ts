/** The candidate module's views for assistant apps that show MCP Apps (see `ViewDef`). */
import type { ViewDef } from '../../core/module.ts'
import { DOCUMENT_LABELS } from '../vendors/index.ts'
import { DEFAULT_STAGES } from './stages.ts'

export const candidateViews: ViewDef[] = [
	{
		name: 'job-pipeline',
		title: 'Job pipeline',
		description: 'A job’s pipeline: its stages, with the applicants in each and their résumé-check scores.',
		file: new URL('./views/job-pipeline.html', import.meta.url),
		tools: ['get_job', 'get_job_applicants', 'list_applications'],
		calls: ['list_applications', 'get_job_applicants'],
		// Stage order and names of the default pipeline, for stages no loaded application names.
		settings: { stages: DEFAULT_STAGES.map(({ key, label }) => ({ key, label })) },
	},
	{
		name: 'candidate-card',
		title: 'Candidate card',
		description: 'A candidate: profile, stage, the résumé check item by item, interview scores and the documents on file.',
		file: new URL('./views/candidate-card.html', import.meta.url),
		tools: ['get_candidate', 'get_application'],
		calls: ['get_application', 'list_candidate_documents'],
		settings: { documentLabels: DOCUMENT_LABELS },
	},
]
