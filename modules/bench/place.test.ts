/**
 * A person's place on a job's bench, decided alone (`benchPlace`): what they meet of the job, the
 * entry shown (the one on the job's role family), and the reasons in our words.
 */
import { expect, test } from 'bun:test'
import { benchPlace } from './match.ts'
import type { BenchRow } from './service.ts'
import type { RoleFamily } from './family.ts'

const now = new Date('2026-03-02T10:00:00Z')
const job = { id: 'job_1', mustHave: ['Java', 'SQL'], niceToHave: ['Kafka', 'AWS'], family: 'java' as const }
const entry = (id: string, roleFamily: RoleFamily, more: Partial<BenchRow> = {}): BenchRow => ({
	id,
	candidateId: 'cand_1',
	roleFamily,
	jobId: null,
	addedByUserId: null,
	availableFrom: null,
	hourlyRate: null,
	addedAt: now,
	...more,
})

test('on the job’s role family: that entry, the requirements met and missing, available now', () => {
	const place = benchPlace(job, [entry('b1', 'python'), entry('b2', 'java')], { Java: true, Kafka: true }, now)
	expect(place.entry.id).toBe('b2')
	expect(place.families).toEqual(['python', 'java'])
	expect(place.match).toEqual({ mustMet: 1, mustTotal: 2, missing: ['SQL'], niceMet: ['Kafka'], niceTotal: 2 })
	expect(place.reasons).toEqual(['meets 1 of 2 must-haves', '1 of 2 nice-to-haves', 'on the java bench, the job’s role family', 'available now'])
})

test('another family, added for this job, available later: the first entry and every reason', () => {
	const place = benchPlace(
		{ ...job, niceToHave: [] },
		[entry('b1', 'python', { jobId: 'job_1', availableFrom: '2026-03-12' }), entry('b2', 'dataeng', { availableFrom: '2026-05-01' })],
		{},
		now,
	)
	expect(place.entry.id).toBe('b1')
	expect(place.reasons).toEqual([
		'meets 0 of 2 must-haves',
		'on the python, dataeng bench; the job looks like java',
		'available from 2026-03-12 (in 10 days)',
		'added to the bench for this job',
	])
})

test('a job without must-haves says so; a start beyond 30 days is not available', () => {
	const place = benchPlace({ ...job, mustHave: [], niceToHave: [] }, [entry('b1', 'java', { availableFrom: '2026-06-01' })], {}, now)
	expect(place.reasons).toEqual(['the job lists no must-haves', 'on the java bench, the job’s role family', 'not available until 2026-06-01'])
})
