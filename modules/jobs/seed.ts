/** Demo jobs: about forty realistic IT staffing requisitions across vendors and all three states. */
import { seededId, seededRandom } from '../../core/seed-random.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { demoVendorIds } from '../vendors/index.ts'
import { seedJobQuestions } from './questions-seed.ts'
import { slugify } from './rows.ts'
import { jobs } from './table.ts'

export interface RoleTemplate {
	family: string
	title: string
	mustHave: string[]
	niceToHave: string[]
	summary: string
}

/** Role templates by family; candidates and bench demo data draw on the same families. */
export const ROLE_TEMPLATES: RoleTemplate[] = [
	{
		family: 'java',
		title: 'Senior Java Developer',
		mustHave: ['Java 17', 'Spring Boot', 'Microservices', 'REST APIs', '7+ years of experience'],
		niceToHave: ['Kafka', 'AWS', 'Kubernetes'],
		summary: 'Build and scale payment microservices for a Fortune 500 bank.',
	},
	{
		family: 'java',
		title: 'Java Full Stack Engineer',
		mustHave: ['Java', 'Spring Boot', 'Angular', 'SQL'],
		niceToHave: ['Azure', 'Docker'],
		summary: 'Own features end to end on a claims platform modernisation.',
	},
	{
		family: 'dotnet',
		title: '.NET Core Developer',
		mustHave: ['C#', '.NET Core', 'ASP.NET Web API', 'SQL Server'],
		niceToHave: ['Azure Functions', 'Entity Framework'],
		summary: 'Modernise line-of-business applications for a healthcare network.',
	},
	{
		family: 'datasci',
		title: 'Data Scientist',
		mustHave: ['Python', 'Machine Learning', 'SQL', '5+ years of experience'],
		niceToHave: ['PySpark', 'Databricks', 'MLflow'],
		summary: 'Build churn and pricing models for a national retailer.',
	},
	{
		family: 'python',
		title: 'Python Backend Engineer',
		mustHave: ['Python', 'Django', 'PostgreSQL', 'REST APIs'],
		niceToHave: ['Celery', 'Redis', 'AWS'],
		summary: 'Extend a logistics platform serving thousands of carriers.',
	},
	{
		family: 'fullstack',
		title: 'Full Stack Developer (React/Node)',
		mustHave: ['React', 'Node.js', 'TypeScript', 'GraphQL'],
		niceToHave: ['Next.js', 'AWS Lambda'],
		summary: 'Ship customer-facing features for a fintech start-up.',
	},
	{
		family: 'qa',
		title: 'QA Automation Engineer',
		mustHave: ['Selenium', 'Java', 'TestNG', 'API testing'],
		niceToHave: ['Cypress', 'Jenkins'],
		summary: 'Automate regression suites for an insurance policy platform.',
	},
	{
		family: 'sre',
		title: 'Site Reliability Engineer',
		mustHave: ['Kubernetes', 'Terraform', 'Prometheus', 'Linux'],
		niceToHave: ['Go', 'GCP'],
		summary: 'Keep a high-traffic streaming platform fast and available.',
	},
	{
		family: 'devops',
		title: 'DevOps Engineer',
		mustHave: ['AWS', 'Terraform', 'Jenkins', 'Docker'],
		niceToHave: ['Ansible', 'Python'],
		summary: 'Build CI/CD and infrastructure as code for a SaaS provider.',
	},
	{
		family: 'cloud',
		title: 'Azure Cloud Architect',
		mustHave: ['Azure', 'Cloud architecture', 'Networking', '10+ years of experience'],
		niceToHave: ['AZ-305', 'Terraform'],
		summary: 'Lead a data-centre exit to Azure for a manufacturer.',
	},
	{
		family: 'genai',
		title: 'Generative AI Engineer',
		mustHave: ['Python', 'LLM', 'RAG', 'Vector databases'],
		niceToHave: ['LangChain', 'Azure OpenAI'],
		summary: 'Bring retrieval-augmented assistants into production.',
	},
	{
		family: 'dataeng',
		title: 'Data Engineer (Snowflake)',
		mustHave: ['Snowflake', 'SQL', 'dbt', 'Airflow'],
		niceToHave: ['Python', 'Fivetran'],
		summary: 'Build the analytics platform of a media company.',
	},
	{
		family: 'dba',
		title: 'Oracle DBA',
		mustHave: ['Oracle 19c', 'RAC', 'Data Guard', 'Performance tuning'],
		niceToHave: ['PostgreSQL', 'OCI'],
		summary: 'Run mission-critical Oracle estates for a utility.',
	},
	{
		family: 'security',
		title: 'Cybersecurity Analyst',
		mustHave: ['SIEM', 'Splunk', 'Incident response', 'NIST'],
		niceToHave: ['CISSP', 'CrowdStrike'],
		summary: 'Defend a regional bank around the clock.',
	},
	{
		family: 'privacy',
		title: 'Data Privacy Analyst',
		mustHave: ['GDPR', 'CCPA', 'OneTrust', 'Privacy impact assessments'],
		niceToHave: ['CIPP/US'],
		summary: 'Run the privacy programme of a health insurer.',
	},
	{
		family: 'workday',
		title: 'Workday HCM Consultant',
		mustHave: ['Workday HCM', 'Business processes', 'EIB', '5+ years of experience'],
		niceToHave: ['Workday Studio', 'Payroll'],
		summary: 'Lead Workday HCM phase two for a university system.',
	},
	{
		family: 'salesforce',
		title: 'Salesforce Developer',
		mustHave: ['Apex', 'Lightning Web Components', 'SOQL', 'Salesforce integrations'],
		niceToHave: ['Platform Developer II', 'Service Cloud'],
		summary: 'Extend Service Cloud for a telecom contact centre.',
	},
	{
		family: 'servicenow',
		title: 'ServiceNow Developer',
		mustHave: ['ServiceNow', 'JavaScript', 'ITSM', 'Flow Designer'],
		niceToHave: ['CSA', 'ITOM'],
		summary: 'Automate IT service management for a government agency.',
	},
	{
		family: 'gis',
		title: 'GIS Developer',
		mustHave: ['ArcGIS', 'Python', 'Spatial analysis', 'SQL'],
		niceToHave: ['ArcGIS Enterprise', 'PostGIS'],
		summary: 'Map utility networks for a state department of transport.',
	},
	{
		family: 'insurance',
		title: 'Guidewire Developer',
		mustHave: ['Guidewire PolicyCenter', 'Gosu', 'Java', 'Integrations'],
		niceToHave: ['Guidewire Cloud', 'ClaimCenter'],
		summary: 'Implement PolicyCenter for a property and casualty insurer.',
	},
	{
		family: 'product',
		title: 'Technical Product Owner',
		mustHave: ['Agile', 'Backlog management', 'API products', 'Stakeholder management'],
		niceToHave: ['CSPO', 'Jira'],
		summary: 'Own the API roadmap of a payments platform.',
	},
	{
		family: 'ba',
		title: 'Business Analyst (Banking)',
		mustHave: ['Requirements gathering', 'SQL', 'Banking domain', 'UAT'],
		niceToHave: ['Jira', 'Visio'],
		summary: 'Translate lending workflows into clear requirements.',
	},
	{
		family: 'pm',
		title: 'IT Project Manager',
		mustHave: ['PMP', 'Agile', 'Budget management', 'Vendor management'],
		niceToHave: ['SAFe', 'MS Project'],
		summary: 'Run an ERP roll-out across twelve sites.',
	},
]

const LOCATIONS = [
	'Austin, TX',
	'Dallas, TX',
	'Charlotte, NC',
	'Atlanta, GA',
	'Chicago, IL',
	'Jersey City, NJ',
	'Phoenix, AZ',
	'Columbus, OH',
	'Seattle, WA',
	'Denver, CO',
	'Tampa, FL',
	'Remote (US)',
]
const EMPLOYMENTS = ['Contract W2', 'Contract C2C', 'W2 or C2C, 12 months', 'Contract to hire (W2)', 'C2C only, 6 months+', 'Long-term contract']
const INTERVIEWS = ['Two video rounds', 'Video then onsite', 'One technical round', 'Phone screen then panel']
const VISA = ['Any', 'No Sponsorship', 'USC', 'USC/GC'] as const

function descriptionOf(t: RoleTemplate, location: string): string {
	return `<h2>What you will do</h2><p>${t.summary} You will work with a distributed team in ${location}.</p><ul><li>Design, build and operate production systems</li><li>Work closely with product owners and QA</li><li>Mentor engineers and review code</li></ul><h2>What we offer</h2><p>A long-term engagement with a client that values <strong>quality</strong> and <em>steady delivery</em>.</p>`
}

export async function seedJobs(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const rnd = seededRandom(`jobs:${ws.id}`)
	const vendorIds = demoVendorIds(ws)
	const rows = []
	for (let i = 0; i < 40; i++) {
		const t = ROLE_TEMPLATES[i % ROLE_TEMPLATES.length]!
		const location = rnd.pick(LOCATIONS)
		const vendorId = i % 8 === 7 ? null : vendorIds[i % (vendorIds.length - 1)]!
		const status = i % 10 === 3 ? 'Closed' : i % 10 === 8 ? 'Draft' : 'Open'
		const createdDaysAgo = 60 - i
		const employment = rnd.pick(EMPLOYMENTS)
		const id = seededId('job', ws.id, `job-${i}`)
		rows.push({
			id,
			workspaceId: ws.id,
			vendorId,
			vendorJobId: vendorId ? `REQ-${10400 + i * 7}` : null,
			slug: `${slugify(t.title)}-${id.slice(4, 10)}`,
			title: t.title,
			location,
			employment,
			contractType: /C2C/.test(employment) && /W2/.test(employment) ? 'W2 / C2C' : /C2C/.test(employment) ? 'C2C' : 'W2',
			summary: t.summary,
			description: descriptionOf(t, location),
			mustHave: t.mustHave,
			niceToHave: t.niceToHave,
			visa: rnd.pick(VISA),
			interview: rnd.pick(INTERVIEWS),
			schedule: location.startsWith('Remote') ? 'Remote' : rnd.pick(['Onsite', 'Hybrid', 'Hybrid']),
			minYears: rnd.int(2, 10),
			department: t.family === 'pm' || t.family === 'ba' || t.family === 'product' ? 'Delivery' : 'Technologies',
			salaryMin: vendorId ? null : 90_000 + rnd.int(0, 6) * 10_000,
			salaryMax: vendorId ? null : 150_000 + rnd.int(0, 6) * 10_000,
			status,
			activelyHiring: status === 'Open' && rnd.chance(0.4),
			createdAt: new Date(Date.now() - createdDaysAgo * 86_400_000),
			updatedAt: new Date(Date.now() - Math.max(0, createdDaysAgo - 3) * 86_400_000),
			publishedAt: status === 'Draft' ? null : new Date(Date.now() - createdDaysAgo * 86_400_000),
			closedAt: status === 'Closed' ? new Date(Date.now() - Math.max(0, createdDaysAgo - 10) * 86_400_000) : null,
		})
	}
	await deps.db.insert(jobs).values(rows).onConflictDoNothing()
	await seedJobQuestions(deps, ws, rows)
}
