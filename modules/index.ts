/** The module list, explicit: adding a domain is a folder, its migration and one line here. */
import activity from './activity/index.ts'
import auth from './auth/index.ts'
import careers from './careers/index.ts'
import jobs from './jobs/index.ts'
import outbox from './outbox/index.ts'
import vendors from './vendors/index.ts'

export const modules = [activity, auth, outbox, vendors, jobs, careers] as const
