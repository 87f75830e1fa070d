/** Role families (the spec's enumeration) and the family a job most likely belongs to. */

export const ROLE_FAMILIES = [
	'java',
	'dotnet',
	'datasci',
	'python',
	'fullstack',
	'qa',
	'sre',
	'devops',
	'cloud',
	'genai',
	'dataeng',
	'dba',
	'privacy',
	'security',
	'workday',
	'salesforce',
	'servicenow',
	'gis',
	'insurance',
	'product',
	'ba',
	'pm',
	'other',
] as const
export type RoleFamily = (typeof ROLE_FAMILIES)[number]

/** Role families as people read them. */
export const FAMILY_LABELS: Record<RoleFamily, string> = {
	java: 'Java',
	dotnet: '.NET',
	datasci: 'Data science',
	python: 'Python',
	fullstack: 'Full stack',
	qa: 'QA and testing',
	sre: 'Site reliability',
	devops: 'DevOps',
	cloud: 'Cloud',
	genai: 'Generative AI',
	dataeng: 'Data engineering',
	dba: 'Database administration',
	privacy: 'Privacy',
	security: 'Security',
	workday: 'Workday',
	salesforce: 'Salesforce',
	servicenow: 'ServiceNow',
	gis: 'GIS',
	insurance: 'Insurance',
	product: 'Product',
	ba: 'Business analysis',
	pm: 'Project management',
	other: 'Other',
}

export const familyLabel = (family: string) => (Object.hasOwn(FAMILY_LABELS, family) ? FAMILY_LABELS[family as RoleFamily] : family)

/** Title patterns by family, most specific first ("Java Full Stack" is java, "Data Engineer" is not datasci). */
const TITLE_RULES: [RoleFamily, RegExp][] = [
	['genai', /\b(gen(erative)?\s*ai|llm|genai|ai engineer|prompt)\b/i],
	['datasci', /\b(data scien|machine learning|ml engineer)/i],
	['dataeng', /\b(data engineer|etl|snowflake|databricks|data warehouse|big data)/i],
	['dba', /\b(dba|database administrator)\b/i],
	['privacy', /\bprivacy\b/i],
	['security', /(security|cyber|\bsoc analyst|\biam\b)/i],
	['workday', /\bworkday\b/i],
	['salesforce', /\bsalesforce\b/i],
	['servicenow', /\bservicenow\b/i],
	['gis', /\b(gis|arcgis|geospatial)\b/i],
	['insurance', /\b(guidewire|duck ?creek|insurance)\b/i],
	['sre', /\b(sre|site reliability)\b/i],
	['devops', /\bdevops\b/i],
	['cloud', /\b(cloud|azure|aws|gcp)\b/i],
	['qa', /\b(qa|quality|test\w*|sdet)\b/i],
	['dotnet', /(\.net|\bc#|dotnet)/i],
	['java', /\bjava\b(?!script)/i],
	['fullstack', /\b(full[\s-]?stack|front[\s-]?end|react|angular|node)/i],
	['python', /\b(python|django)\b/i],
	['product', /\b(product (owner|manager)|scrum master)\b/i],
	['ba', /\b(business analyst|\bba\b)/i],
	['pm', /\b(project manager|program manager|delivery manager|pmp)\b/i],
]

export function jobFamily(title: string, mustHave: readonly string[] = []): RoleFamily {
	for (const [family, pattern] of TITLE_RULES) if (pattern.test(title)) return family
	const skills = mustHave.join(' ')
	for (const [family, pattern] of TITLE_RULES) if (pattern.test(skills)) return family
	return 'other'
}
