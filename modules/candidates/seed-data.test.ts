/**
 * Demo candidates: every role family's model candidate has every must-have and may work without
 * sponsorship, whatever the random draw (the demo's saved searches rely on it); the others vary.
 */
import { describe, expect, test } from 'bun:test'
import { seededRandom } from '../../core/seed-random.ts'
import { ROLE_TEMPLATES, type RoleTemplate } from '../jobs/index.ts'
import { demoCandidate, mustHaveSkills } from './seed-data.ts'

const DRAWS = 300
/** How many must-haves the candidate lists, as written or spelled another way (the skills that are not nice-to-haves). */
const mustHavesListed = (c: { skills: string[] }, template: RoleTemplate) => c.skills.filter((s) => !template.niceToHave.includes(s)).length

describe('demo candidates', () => {
	test('a model candidate lists every must-have and is a US citizen or green card holder, in any draw', () => {
		for (let draw = 0; draw < DRAWS; draw++)
			for (const [i, template] of ROLE_TEMPLATES.entries()) {
				const c = demoCandidate(seededRandom(`model:${draw}`), i, template, { model: true })
				expect({ title: template.title, draw, mustHaves: mustHavesListed(c, template) }).toEqual({
					title: template.title,
					draw,
					mustHaves: mustHaveSkills(template).length,
				})
				expect(['USC', 'GC']).toContain(c.workAuthorization)
			}
	})

	test('the other candidates vary: some leave a must-have out, and every work authorization occurs', () => {
		const auths = new Set<string>()
		let missing = 0
		for (let draw = 0; draw < DRAWS; draw++)
			for (const [i, template] of ROLE_TEMPLATES.entries()) {
				const c = demoCandidate(seededRandom(`other:${draw}`), i, template)
				auths.add(c.workAuthorization)
				if (mustHavesListed(c, template) < mustHaveSkills(template).length) missing++
			}
		expect([...auths].sort()).toEqual(['EAD', 'GC', 'H1B', 'L2', 'OPT', 'TN', 'USC'])
		expect(missing).toBeGreaterThan(0)
	})

	test('the model draws as many random numbers as any other, so the rest of the demo does not shift', () => {
		const [a, b] = [seededRandom('same'), seededRandom('same')]
		demoCandidate(a, 3, ROLE_TEMPLATES[3]!, { model: true })
		demoCandidate(b, 3, ROLE_TEMPLATES[3]!)
		expect(a.next()).toBe(b.next())
	})
})
