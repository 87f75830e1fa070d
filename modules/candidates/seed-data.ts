/**
 * Demo candidates: realistic profiles and résumé texts drawn from the job role templates, with
 * the variety the résumé check has to cope with (other spellings of a skill, a must-have left out,
 * years stated or only visible from dates). Deterministic for a given random stream.
 */
import type { SeededRandom } from '../../core/seed-random.ts'
import type { RoleTemplate } from '../jobs/index.ts'
import { WORK_AUTHORIZATIONS } from './list-query.ts'

const FIRST = [
	'Aarav',
	'Priya',
	'Wei',
	'Maria',
	'James',
	'Olivia',
	'Rahul',
	'Sofia',
	'Daniel',
	'Aisha',
	'Carlos',
	'Emily',
	'Kenji',
	'Fatima',
	'Lucas',
	'Grace',
	'Vikram',
	'Hannah',
	'Mateo',
	'Chloe',
	'Arjun',
	'Nora',
	'Ethan',
	'Leila',
	'Diego',
	'Mei',
	'Samuel',
	'Ananya',
	'Omar',
	'Isabella',
	'Ravi',
	'Zoe',
	'Noah',
	'Sana',
	'Tomás',
	'Ava',
	'Karthik',
	'Elena',
	'Benjamin',
	'Yuki',
]
const LAST = [
	'Sharma',
	'Chen',
	'Garcia',
	'Smith',
	'Johnson',
	'Patel',
	'Kim',
	'Nguyen',
	'Rodriguez',
	'Williams',
	'Reddy',
	'Müller',
	'Brown',
	'Tanaka',
	'Hernández',
	'Okafor',
	'Iyer',
	'Davis',
	'Lopez',
	'Wilson',
	'Singh',
	'Martin',
	'Ali',
	'Anderson',
	'Kowalski',
	'Rossi',
	'Thomas',
	'Moore',
	'Gupta',
	'Jackson',
]
const LOCATIONS = [
	'Austin, TX',
	'Dallas, TX',
	'Houston, TX',
	'Charlotte, NC',
	'Atlanta, GA',
	'Chicago, IL',
	'Jersey City, NJ',
	'Edison, NJ',
	'Phoenix, AZ',
	'Columbus, OH',
	'Seattle, WA',
	'Denver, CO',
	'Tampa, FL',
	'Raleigh, NC',
	'San Jose, CA',
	'Boston, MA',
]
const COMPANIES = [
	'Acme Financial',
	'Globex Health',
	'Initech',
	'Umbrella Insurance',
	'Stark Logistics',
	'Wayne Retail',
	'Soylent Foods',
	'Hooli',
	'Vandelay Industries',
	'Cyberdyne Systems',
	'Tyrell Media',
	'Wonka Manufacturing',
	'Oscorp Energy',
	'Massive Dynamic',
]
const SCHOOLS = [
	'University of Texas at Austin',
	'Georgia Tech',
	'Anna University',
	'Arizona State University',
	'Purdue University',
	'University of Mumbai',
	'Ohio State University',
	'Rutgers University',
	'University of Washington',
]
/** The work authorizations that need no sponsorship: a model candidate has one, and a demo applicant answers "yes" to a yes/no screening question with one. */
export const WITHOUT_SPONSORSHIP: readonly string[] = ['USC', 'GC']
export const SOURCES = ['careers', 'vendor', 'referral', 'sourced', 'job_board'] as const

/** Other ways people write a skill (what the résumé check must still recognise). */
const SPELLINGS: Record<string, string[]> = {
	'Spring Boot': ['SpringBoot', 'Spring-Boot'],
	Kubernetes: ['K8s'],
	'.NET Core': ['dotnet core', '.Net Core 6'],
	'Node.js': ['NodeJS'],
	'REST APIs': ['RESTful services', 'REST API design'],
	JavaScript: ['JS (ES6+)'],
	'Machine Learning': ['ML'],
	PostgreSQL: ['Postgres'],
	Microservices: ['micro-services'],
	'Vector databases': ['pgvector', 'Pinecone'],
	'Java 17': ['Java 11', 'Java 17'],
	'Oracle 19c': ['Oracle 12c/19c', 'Oracle 19c'],
}

const BULLETS = [
	(a: string, b: string) => `Designed and shipped features with ${a} and ${b} for a team of 8 engineers`,
	(a: string, b: string) => `Cut release lead time by 40% by automating ${a} work and improving ${b}`,
	(a: string, b: string) => `Led the migration of legacy systems to ${a}, working with ${b}`,
	(a: string) => `Mentored junior engineers on ${a} and code reviews`,
	(a: string) => `Owned production support and on-call for ${a} services`,
]

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

export interface DemoCandidate {
	name: string
	email: string
	phone: string
	location: string
	headline: string
	skills: string[]
	years: number
	workAuthorization: string
	source: string
	resumeText: string
}

/** A template's must-haves that are skills (not "7+ years of experience"): what a demo résumé lists. */
export const mustHaveSkills = (template: RoleTemplate) => template.mustHave.filter((m) => !/\d+\+?\s*years?/i.test(m))

/**
 * A role family's model candidate (`model`) lists every must-have and may work without
 * sponsorship (USC or GC): every role then has a strong match, and the demo's saved searches on
 * /candidates (a family's words, a work authorization filter) find someone whatever the
 * workspace's random draw; the others vary. The random draws are the same either way, so the
 * rest of the demo does not shift.
 */
export function demoCandidate(rnd: SeededRandom, i: number, template: RoleTemplate, { model = false } = {}): DemoCandidate {
	const first = FIRST[(i * 7 + rnd.int(0, 3)) % FIRST.length]!
	const last = LAST[(i * 11 + rnd.int(0, 5)) % LAST.length]!
	const name = `${first} ${last}`
	const email =
		`${first}.${last}.${i}`
			.normalize('NFKD')
			.replace(/[\u0300-\u036f]/g, '')
			.toLowerCase() + '@example.com'
	const phone = `+1 ${rnd.pick(['512', '214', '469', '704', '404', '312', '201', '480', '614', '206'])} 555 01${String(i % 100).padStart(2, '0')}`
	const location = rnd.pick(LOCATIONS)
	const years = rnd.int(2, 16)
	const seniority = years >= 12 ? 'Lead ' : years >= 7 ? 'Senior ' : ''
	const headline = `${seniority}${template.title.replace(/^Senior /, '')}`
	// Most people have every must-have; some miss one; many write a skill another way.
	const must = mustHaveSkills(template)
	const drawnDrop = rnd.chance(0.3) ? rnd.int(0, must.length - 1) : -1
	const dropped = model ? -1 : drawnDrop
	const skills = must.filter((_, k) => k !== dropped).map((m) => (SPELLINGS[m] && rnd.chance(0.5) ? rnd.pick(SPELLINGS[m]!) : m))
	for (const n of template.niceToHave) if (rnd.chance(0.5)) skills.push(n)
	const drawnAuthorization = rnd.pick(WORK_AUTHORIZATIONS)
	const workAuthorization = model && !WITHOUT_SPONSORSHIP.includes(drawnAuthorization) ? WITHOUT_SPONSORSHIP[i % 2]! : drawnAuthorization
	const source = rnd.pick(SOURCES)

	// Work history backwards from 2025, adding up to about `years`.
	const roles: string[] = []
	let end: number | null = null
	let left = years
	let month = rnd.int(0, 11)
	while (left > 0 && roles.length < 4) {
		const span = Math.min(left, rnd.int(2, 5))
		const endYear: number = end ?? 2025
		const startYear: number = endYear - span
		const company = rnd.pick(COMPANIES)
		const title = roles.length === 0 ? headline : template.title.replace(/^Senior /, '')
		const a = skills[rnd.int(0, Math.max(0, skills.length - 1))] ?? 'the platform'
		const b = skills[rnd.int(0, Math.max(0, skills.length - 1))] ?? 'the team'
		const dates = `${MONTHS[month]} ${startYear} – ${end === null ? 'Present' : `${MONTHS[month]} ${endYear}`}`
		roles.push([`${company} — ${title}, ${dates}`, ...rnd.sample(BULLETS, 2).map((f) => `• ${f(a, b)}`)].join('\n'))
		end = startYear
		left -= span
		month = rnd.int(0, 11)
	}
	const statesYears = rnd.chance(0.8)
	const summary = statesYears
		? `${headline} with ${years}+ years of experience building systems for banks, insurers and retailers.`
		: `${headline} who enjoys hard problems and clear code.`
	const resumeText = [
		name,
		`${email} | ${phone} | ${location}`,
		'',
		'SUMMARY',
		summary,
		'',
		'SKILLS',
		skills.join(', '),
		'',
		'EXPERIENCE',
		roles.join('\n\n'),
		'',
		'EDUCATION',
		`B.S. Computer Science, ${rnd.pick(SCHOOLS)}, ${2025 - years - rnd.int(0, 2)}`,
		`Work authorization: ${workAuthorization}`,
	].join('\n')
	return { name, email, phone, location, headline, skills, years, workAuthorization, source, resumeText }
}
