import { defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { openJobsHomeSection } from './home-section.ts'
import { candidateJobFacts } from './facts.ts'
import { startRecheckSweep } from './recheck.ts'
import { candidateSearchProvider } from './search.ts'
import { seedCandidates } from './seed.ts'
import { candidateTools } from './tools.ts'

export { applyToJob, type ApplicationEvent, type ApplyInput } from './apply.ts'
export { candidateCards, requireCandidate, resumeFileOf, resumeHashes, resumeTexts, type CandidateCard } from './public.ts'
export { checkItems, checkResume, prepareResume, type CheckItem, type PreparedResume, type ResumeCheck } from './resume-check.ts'
export { detectResumeType, MAX_RESUME_BYTES } from './resume-file.ts'
export { DEMO_CANDIDATES, demoCandidateId } from './seed.ts'
export { stagesOf, type Stage } from './stages.ts'
export { applicationFunnel, PER_DAY, type ApplicationFunnel, type FunnelStage, type ResponseTimes } from './funnel.ts'
export { applicationParties, candidatesByAddress, waitingApplications, workspaceApplications, type ApplicationParty, type CandidateParty } from './queries.ts'

export default defineModule({
	name: 'candidates',
	description: 'Candidates, applications and the pipeline, the résumé check and the careers apply flow.',
	requires: ['auth', 'activity', 'outbox', 'jobs'],
	permissions: [
		{ key: 'candidates:read', description: 'See candidates and applications (hiring managers: the applicants of their jobs)', grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'] },
		{ key: 'candidates:contact', description: 'See candidates’ e-mail addresses and phone numbers', grantedTo: ['owner', 'admin', 'recruiter'] },
	],
	tools: candidateTools,
	searchProviders: [candidateSearchProvider],
	jobFacts: candidateJobFacts,
	seed: seedCandidates,
	start: (deps) => startRecheckSweep(deps),
	pageSections: [openJobsHomeSection],
	activityLabels: { 'application.received': 'received an application from' },
	recordNames: [
		recordNamesFrom('candidate', 'candidates', 'r.name', (id) => `/candidates/${id}`),
		recordNamesFrom('application', 'applications', "(select c.name from candidates c where c.id = r.candidate_id) || ' for ' || (select j.title from jobs j where j.id = r.job_id)", (id) => `/applications/${id}`),
	],
})
