/**
 * Publishing, closing or drafting a job and marking it actively hiring are refused by the services
 * themselves to those without the permission, not only by the tool's and the page's doors: a caller
 * of the service (another module, a command) gets the same rule.
 */
import { expect, test } from 'bun:test'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { getJob, setActivelyHiring, setJobStatus } from './service.ts'

test('a recruiter (neither jobs:set_status nor jobs:actively_hiring) is refused by the services; an admin is not; the job is unchanged', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const jobId = await newVendorJob(ws)
	const recruiter = await personActor(deps, ws.slug, (await newPerson(ws, 'recruiter')).email)
	const admin = await personActor(deps, ws.slug, (await newPerson(ws, 'admin')).email)
	await expect(setJobStatus(deps, recruiter, jobId, 'Closed')).rejects.toMatchObject({ code: 'FORBIDDEN' })
	await expect(setActivelyHiring(deps, recruiter, jobId, true)).rejects.toMatchObject({ code: 'FORBIDDEN' })
	expect(await getJob(deps, admin, jobId)).toMatchObject({ status: 'Open', activelyHiring: false })
	expect((await setJobStatus(deps, admin, jobId, 'Closed')).status).toBe('Closed')
	expect((await setActivelyHiring(deps, admin, jobId, true)).activelyHiring).toBe(true)
})
