import { describe, expect, test } from 'bun:test'
import { checkResume, isStale, parseRequirement, RESUME_CHECK_VERSION } from './resume-check.ts'

const NOW = new Date('2026-06-01T00:00:00Z')
const status = (text: string, requirement: string) => checkResume(text, [requirement], NOW).items[0]!

describe('résumé check: skills', () => {
	test('meets with another spelling of the same skill', () => {
		const cases: [string, string][] = [
			['Spring Boot', 'Built services with SpringBoot and Kafka'],
			['SpringBoot', 'Spring-Boot 3, Hibernate'],
			['.NET Core', 'Developed APIs in dotnet core 6'],
			['C#', 'Languages: C Sharp, F#, SQL'],
			['JavaScript', 'Front end in JS and HTML5'],
			['Kubernetes', 'Deployed to K8s clusters on EKS'],
			['K8s', 'Ran Kubernetes in production'],
			['REST APIs', 'Designed RESTful services for payments'],
			['Node.js', 'Backend: NodeJS, Express'],
			['Microservices', 'Split the monolith into micro-services'],
			['Machine Learning', 'Applied ML models to churn'],
			['Vector databases', 'RAG pipelines on pgvector and Pinecone'],
			['SQL', 'Tuned PostgreSQL queries'],
			['PostgreSQL', 'Postgres 15 administration'],
			['API testing', 'Tested REST APIs with Postman'],
			['Performance tuning', 'Tuned query performance on Oracle RAC'],
			['Privacy impact assessments', 'Ran DPIAs for new products'],
			['Requirements gathering', 'Gathered requirements from lending teams'],
		]
		for (const [requirement, line] of cases) {
			const item = status(`Jane Doe\n${line}\nEducation: BSc`, requirement)
			expect({ requirement, status: item.status }).toEqual({ requirement, status: 'met' })
			expect(item.evidence).toBe(line)
		}
	})

	test('misses a skill that is not there, and a different skill with a similar name', () => {
		expect(status('Java developer\nSpring MVC, Hibernate', 'Spring Boot').status).toBe('not_found')
		expect(status('Frontend: JavaScript, React', 'Java').status).toBe('not_found')
		expect(status('Java, Spring', 'JavaScript').status).toBe('not_found')
		expect(status('NoSQL stores: MongoDB', 'SQL').status).toBe('not_found')
		expect(status('', 'Python').note).toBe('not mentioned in the résumé')
	})

	test('nearly meets: a version that is not stated still counts, with a note', () => {
		const item = status('Skills: Java 11, Spring Boot', 'Java 17')
		expect(item.status).toBe('met')
		expect(item.note).toBe('version 17 not stated')
		const exact = status('Skills: Java 8, Java 17', 'Java 17')
		expect(exact.note).toBeNull()
	})

	test('nearly meets: words of a phrase spread over two adjacent lines count, further apart do not', () => {
		expect(status('Cloud migration lead\narchitecture reviews for Azure', 'Cloud architecture').status).toBe('met')
		expect(status('Cloud migration lead\nJava\narchitecture reviews', 'Cloud architecture').status).toBe('not_found')
	})
})

describe('résumé check: years', () => {
	test('a stated total meets, a smaller one nearly meets', () => {
		const meets = status('Summary: Java engineer with 8+ years of experience in banking', '7+ years of experience')
		expect(meets.status).toBe('met')
		expect(meets.evidence).toContain('8+ years of experience')
		const near = status('Summary: 6 years of professional experience', '7+ years of experience')
		expect(near.status).toBe('not_found')
		expect(near.note).toBe('about 6 years found; 7+ needed')
		expect(status('Over seven years of industry experience', '7+ years of experience').status).toBe('met')
	})

	test('work history dates add up when no total is stated (overlaps once)', () => {
		const resume = 'Acme Bank, Java Developer, Jan 2016 - Dec 2019\nGlobex, Senior Developer, 01/2019 - Present\nSide project 2018 - 2019'
		const item = status(resume, '10+ years of experience')
		expect(item.status).toBe('met')
		expect(item.note).toContain('work history dates')
		const near = status(resume, '12+ years of experience')
		expect(near.status).toBe('not_found')
		expect(near.note).toMatch(/^about 10\.\d years found; 12\+ needed$/)
		expect(status('Java developer', '5+ years of experience').status).toBe('not_found')
	})

	test('years of one skill need the skill and the years on one line', () => {
		expect(status('Core Java - 9 years\nSpring', '7+ years Java').status).toBe('met')
		expect(status('Java (5 yrs), Kotlin (2 yrs)', 'Java (7+ years)').note).toBe('states 5 years; 7+ needed')
		const noYears = status('Java, Spring, 10 years of experience in retail', '7+ years Java')
		expect(noYears.status).toBe('met')
		const unstated = status('Java and Spring\nRetail domain', '7+ years Java')
		expect(unstated.status).toBe('not_found')
		expect(unstated.note).toBe('mentioned, but without the number of years; 7+ needed')
		expect(status('Python (10 years)', '7+ years Java').status).toBe('not_found')
	})
})

describe('résumé check: score and staleness', () => {
	test('score is the share of must-haves met', () => {
		const check = checkResume('Java 17, Spring Boot, Kafka\n5 years of experience', ['Java', 'Spring Boot', 'Kubernetes', '7+ years of experience'], NOW)
		expect(check.met).toBe(2)
		expect(check.score).toBe(50)
		expect(check.version).toBe(RESUME_CHECK_VERSION)
		expect(checkResume('x', [], NOW).score).toBeNull()
	})

	test('a check is stale when the must-haves, the résumé or the method change', () => {
		const check = checkResume('Java', ['Java'], NOW)
		expect(isStale(check, ['Java'], 'Java')).toBe(false)
		expect(isStale(check, ['Java', 'SQL'], 'Java')).toBe(true)
		expect(isStale(check, ['Java'], 'Java and SQL')).toBe(true)
		expect(isStale({ ...check, version: 0 }, ['Java'], 'Java')).toBe(true)
		expect(isStale(null, [], null)).toBe(true)
	})

	test('requirements are parsed into words, versions and years', () => {
		expect(parseRequirement('7+ years of experience')).toMatchObject({ years: 7, required: [] })
		expect(parseRequirement('7+ years Java')).toMatchObject({ years: 7, required: ['java'] })
		expect(parseRequirement('Oracle 19c')).toMatchObject({ years: null, required: ['oracle'], optional: ['19c'] })
		expect(parseRequirement('ASP.NET Web API').required).toContain('aspdotnet')
	})
})
