import { Elysia } from 'elysia'
import { contribute, defineModule } from '../../core/module.ts'
import { recordNamesFrom } from '../activity/index.ts'
import { jobFacts, jobLabelSql } from '../jobs/index.ts'
import { eventTypes } from '../events/index.ts'
import { CANDIDATE_EVENTS } from './events.ts'
import { searchProviders } from '../search/index.ts'
import { applicationDetails } from './port.ts'
import { candidateListFilters } from './list-query.ts'
import { stageChangeWords } from './stage-words.ts'
import { candidateData } from './data-port.ts'
import { notifiedCandidates } from './notified.ts'
import { notifiedRecords } from '../notifications/index.ts'
import { candidatesData } from './data.ts'
import { openJobsHomeSection } from './home-section.ts'
import { applicationRoutes } from './application-routes.ts'
import { candidateJobFacts } from './facts.ts'
import { jobPageSections } from './job-sections.ts'
import { candidatePageRoutes } from './page-routes.ts'
import { startRecheckSweep } from './recheck.ts'
import { rewriteStoredAddresses } from '../../core/stored-addresses.ts'
import { candidateAddresses } from './apply.ts'
import { resumeReaders } from './resume-file.ts'
import { candidateSearchProvider } from './search.ts'
import { seedCandidates } from './seed.ts'
import { screenApplicantsPrompt } from './prompts.ts'
import { candidateTools } from './tools.ts'
import { candidateViews } from './views.ts'
import * as tables from './table.ts'
import { startKeptResumeSweep } from './kept-resume.ts'

export { applicationPage, type ApplicationPageOptions } from './application-page.ts'
export { moveToStage, type MoveToStageInput, type StageMove } from './stage-move.ts'
export { applyToJob, type ApplicationEvent, type ApplyInput } from './apply.ts'
export { candidateCreated, applicationCreated, applicationStageChanged, candidateErased, CANDIDATE_EVENTS } from './events.ts'
export { forgetKeptResume, keepResume, keptResume } from './kept-resume.ts'
export { recheckChangedJobs } from './recheck.ts'
export {
	applicationCard,
	candidateApplicationChoices,
	candidateCards,
	recentApplications,
	requireCandidate,
	resumeFileOf,
	applicationOwnResume,
	resumeHashes,
	resumeTexts,
	type ApplicationChoice,
	type CandidateCard,
	type RecentApplication,
} from './public.ts'
export { candidatePage, type CandidatePageOptions } from './candidate-page.ts'
export { addNote, MAX_NOTE_CHARS, type AddNoteInput } from './notes.ts'
export {
	checkItems,
	checkResume,
	prepareResume,
	RESUME_CHECK_VERSION,
	resumeHash,
	resumeHashSql,
	type CheckItem,
	type PreparedResume,
	type ResumeCheck,
} from './resume-check.ts'
export { detectResumeType, MAX_RESUME_BYTES } from './resume-file.ts'
export { DEMO_CANDIDATES, demoCandidateId } from './seed.ts'
export { applicationDetails, type ApplicationDetailsSource } from './port.ts'
export { candidateListFilters, type CandidateListFilter } from './list-query.ts'
export { candidateData, type CandidateDataPart, type CandidateDataSource, type CandidateSubject, type ExportFile } from './data-port.ts'
export { applicantFlowOf, candidateSubject, candidateWorkspace, inactiveCandidates, type ApplicantFlowRow, type InactiveCursor } from './data.ts'
export { anyId, colleagueWords } from './reach.ts'
export { stagesOf, type Stage } from './stages.ts'
export { ApplicationInterview, ApplicationMessage, ApplicationScorecard, RECOMMENDATIONS, VendorSubmissionStatus } from './model.ts'
export { applicationFunnel, PER_DAY, type ApplicationFunnel, type FunnelStage, type ResponseTimes } from './funnel.ts'
export {
	applicationParties,
	candidateFile,
	candidatePartiesById,
	candidatesByAddress,
	reachableApplication,
	waitingApplications,
	workspaceApplications,
	careersSiteApplications,
	type ApplicationKey,
	type ApplicationParty,
	type CandidateFile,
	type CandidateParty,
} from './queries.ts'

export default defineModule({
	name: 'candidates',
	description: 'Candidates, applications and the pipeline, the résumé check and the careers apply flow.',
	requires: ['auth', 'audit', 'activity', 'outbox', 'vendors', 'jobs', 'search', 'events', 'notifications', 'saved-searches'],
	checks: ['candidates:read', 'candidates:contact', 'candidates:move', 'candidates:note', 'saved-searches:use'],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [
		{
			key: 'candidates:read',
			description: 'See candidates and applications (hiring managers: the applicants of their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
		{ key: 'candidates:contact', description: 'See candidates’ e-mail addresses and phone numbers', grantedTo: ['owner', 'admin', 'recruiter'] },
		{
			key: 'candidates:move',
			description: 'Move applications between pipeline stages (hiring managers: on their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
		{
			key: 'candidates:note',
			description: 'Write notes on candidates (hiring managers: the applicants of their jobs)',
			grantedTo: ['owner', 'admin', 'recruiter', 'hiring_manager'],
		},
	],
	routes: (deps, kit) => new Elysia({ name: 'candidates.routes' }).use(candidatePageRoutes(deps, kit)).use(applicationRoutes(deps, kit)),
	paths: ['/candidates', '/applications'],
	nav: [{ href: '/candidates', label: 'Candidates', section: 'work', order: 20, permission: 'candidates:read' }],
	tools: candidateTools,
	prompts: [screenApplicantsPrompt],
	views: candidateViews,
	ports: [applicationDetails, candidateData, candidateListFilters],
	contributes: [
		contribute(searchProviders, candidateSearchProvider),
		contribute(jobFacts, candidateJobFacts),
		contribute(candidateData, candidatesData),
		contribute(notifiedRecords, notifiedCandidates),
		...CANDIDATE_EVENTS.map((e) => contribute(eventTypes, e)),
	],
	seed: seedCandidates,
	pools: [resumeReaders],
	start: (deps) => {
		// Once per start: addresses stored before they had one normal form (core/stored-addresses.ts).
		void rewriteStoredAddresses(deps, candidateAddresses)
		const stops = [startRecheckSweep(deps), startKeptResumeSweep(deps)]
		return async () => {
			for (const stop of stops) await stop()
		}
	},
	pageSections: [openJobsHomeSection, ...jobPageSections],
	activityLabels: {
		'application.received': 'received an application from',
		'application.rejected': 'rejected the application',
		'application.stage_changed': 'moved',
	},
	activityChanges: [stageChangeWords],
	recordNames: [
		recordNamesFrom('candidate', 'candidates', 'r.name', (id) => `/candidates/${id}`),
		recordNamesFrom(
			'application',
			'applications',
			`(select c.name from candidates c where c.id = r.candidate_id) || ' for ' || (select ${jobLabelSql('j')} from jobs j where j.id = r.job_id)`,
			(id) => `/applications/${id}`,
		),
	],
})
