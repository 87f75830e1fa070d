/**
 * EEO and OFCCP: the voluntary self-identification questions of the apply form (sex, race or
 * ethnicity, veteran status, disability), stored apart from the application and never shown to
 * recruiters, hiring managers, vendors or assistant apps; owners see only counts per job and stage
 * (/eeo, a line with a count under 5 hidden whole) and download them as CSV.
 */
import { contribute, defineModule } from '../../core/module.ts'
import { eeoRoutes } from './routes.ts'
import { seedSelfIdentification } from './seed.ts'
import * as tables from './table.ts'
import { eeoData } from './data.ts'
import { candidateData } from '../candidates/index.ts'

export { selfIdentificationFields } from './form.ts'
export { readSelfIdentification, recordSelfIdentification, forgetSelfIdentification } from './service.ts'
export { EEO_QUESTIONS, DECLINED, type EeoAnswers } from './questions.ts'

export default defineModule({
	name: 'eeo',
	description: 'Voluntary self-identification on the apply form, kept apart, and the owners’ aggregated EEO report.',
	requires: ['auth', 'jobs', 'candidates', 'privacy'],
	checks: ['eeo:report'],
	contributes: [contribute(candidateData, eeoData)],
	tables,
	migrations: new URL('./migrations/', import.meta.url),
	permissions: [{ key: 'eeo:report', description: 'See the aggregated EEO report', grantedTo: ['owner'] }],
	routes: eeoRoutes,
	paths: ['/eeo'],
	nav: [{ href: '/eeo', label: 'EEO report', permission: 'eeo:report' }],
	seed: seedSelfIdentification,
})
