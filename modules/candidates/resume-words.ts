/**
 * Word normalisation for the résumé check: the same function runs over a job's must-haves and over
 * résumé lines, so both sides meet in one vocabulary. Known spellings of a technology become one
 * canonical token ("Spring Boot", "SpringBoot", "spring-boot" → `springboot`); a specific product
 * also yields the general skill it proves (PostgreSQL → `sql`, ASP.NET → `dotnet`).
 */

/** [pattern over lower-cased text, replacement tokens]; longer spellings come before shorter ones. */
const SYNONYMS: [RegExp, string][] = [
	[/\basp\s*\.\s*net(?:\s+core)?\b|\basp\s+dot\s*net\b/g, ' aspdotnet dotnet '],
	[/(?<![a-z0-9])\.\s?net\b|\bdot\s?net\b/g, ' dotnet '],
	[/\bc\s?#|\bc\s+sharp\b|\bcsharp\b/g, ' csharp '],
	[/\bc\+\+|\bcpp\b/g, ' cplusplus '],
	[/\bspring[\s-]*boot\b/g, ' springboot '],
	[/\bnode\s*\.?\s*js\b/g, ' nodejs '],
	[/\bnext\s*\.?\s*js\b/g, ' nextjs '],
	[/\breact\s*\.?\s*js\b|\breact\b/g, ' react '],
	[/\bangular\s*\.?\s*js\b|\bangular\b/g, ' angular '],
	[/\bvue\s*\.?\s*js\b/g, ' vue '],
	[/\bjavascript\b|\bjs\b|\becmascript\b|\bes6\b/g, ' javascript '],
	[/\btypescript\b|\bts\b/g, ' typescript '],
	[/\bk8s\b|\bkubernetes\b/g, ' kubernetes '],
	[/\bgo[\s-]live\b/g, ' golive '],
	[/\bgolang\b/g, ' go '],
	[/\bpostgres(?:ql)?\b|\bpsql\b/g, ' postgresql sql '],
	[/\bmy\s?sql\b/g, ' mysql sql '],
	[/\b(?:ms\s?)?sql\s?server\b|\bmssql\b/g, ' sqlserver sql '],
	[/\bpl\s?\/\s?sql\b/g, ' plsql sql '],
	[/\bt-?sql\b/g, ' tsql sql '],
	[/\bsoql\b/g, ' soql sql '],
	[/\brest(?:ful)?(?:\s+(?:web\s+)?(?:apis?|services?|endpoints?))?\b/g, ' restapi api '],
	[/\bweb\s+apis?\b/g, ' webapi restapi api '],
	[/\bmicro[\s-]?services?\b/g, ' microservice '],
	[/\bamazon\s+web\s+services\b|\baws\b/g, ' aws '],
	[/\bgoogle\s+cloud(?:\s+platform)?\b|\bgcp\b/g, ' gcp '],
	[/\bmicrosoft\s+azure\b/g, ' azure '],
	[/\bmachine[\s-]+learning\b|\bml\b/g, ' machinelearning '],
	[/\blarge\s+language\s+models?\b|\bllms?\b/g, ' llm '],
	[/\bretrieval[\s-]+augmented\s+generation\b|\brag\b/g, ' rag '],
	[/\bgen(?:erative)?\s*ai\b/g, ' genai ai '],
	[/\bartificial\s+intelligence\b/g, ' ai '],
	[/\bci\s?\/\s?cd\b|\bci\s+cd\b|\bcontinuous\s+(?:integration|delivery|deployment)\b/g, ' cicd '],
	[/\bvector\s+(?:databases?|dbs?|stores?|search)\b|\bpinecone\b|\bpgvector\b|\bweaviate\b|\bmilvus\b|\bchroma(?:db)?\b/g, ' vectordb '],
	[/\blightning\s+web\s+components?\b|\blwc\b/g, ' lwc '],
	[/\bproject\s+management\s+professional\b/g, ' pmp '],
	[/\buser\s+acceptance\s+testing\b/g, ' uat '],
	[/\bend[\s-]to[\s-]end\b/g, ' e2e '],
	[/\bdata\s?bricks\b/g, ' databricks '],
	[/\bair\s?flow\b/g, ' airflow '],
	[/\bsnow\s?flake\b/g, ' snowflake '],
	[/\bservice\s?now\b/g, ' servicenow '],
	[/\bone\s?trust\b/g, ' onetrust '],
	[/\bsales\s?force\b|\bsfdc\b/g, ' salesforce '],
	[/\barc\s?gis\b/g, ' arcgis '],
	[/\bpolicy\s?center\b/g, ' policycenter '],
	[/\bclaim\s?center\b/g, ' claimcenter '],
	[/\bpy\s?spark\b/g, ' pyspark spark '],
	[/\bentity\s+framework(?:\s+core)?\b|\bef\s+core\b/g, ' entityframework '],
	[/\bgithub\s+actions\b/g, ' githubactions cicd '],
	[/\bincident\s+(?:response|handling|management)\b/g, ' incidentresponse '],
	[/\bprivacy\s+impact\s+assessments?\b|\bpias?\b|\bdpias?\b/g, ' pia '],
]

const NUMBER_WORDS: Record<string, string> = {
	one: '1',
	two: '2',
	three: '3',
	four: '4',
	five: '5',
	six: '6',
	seven: '7',
	eight: '8',
	nine: '9',
	ten: '10',
	eleven: '11',
	twelve: '12',
	thirteen: '13',
	fourteen: '14',
	fifteen: '15',
	twenty: '20',
}

/** Lower-cased, accents removed, number words as digits. */
export function baseNormalise(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[‐‑‒–—]/g, '-')
		.replace(/\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty)\b/g, (w) => NUMBER_WORDS[w]!)
}

/** A light stemmer: enough for plurals and -ing/-ed forms ("APIs", "tuning"/"tuned"). */
function stem(token: string): string {
	if (token.length > 5 && token.endsWith('ing')) return token.slice(0, -3)
	if (token.length > 4 && token.endsWith('ies')) return `${token.slice(0, -3)}y`
	if (token.length > 4 && token.endsWith('ed')) return token.slice(0, -2)
	if (token.length > 4 && /(ss|x|ch|sh)es$/.test(token)) return token.slice(0, -2)
	if (token.length > 3 && token.endsWith('s') && !token.endsWith('ss')) return token.slice(0, -1)
	return token
}

const SEP = '\u0001'

function canonical(normalised: string): string {
	// Certification-style codes stay one token: AZ-305, CIPP/US.
	let s = ` ${normalised} `.replace(/\b([a-z]{1,5})[-/](\d{2,4}|us|eu|e)\b/g, '$1$2')
	for (const [pattern, replacement] of SYNONYMS) s = s.replace(pattern, replacement)
	return s
}

const split = (s: string) =>
	s
		.split(/[^a-z0-9]+/)
		.filter(Boolean)
		.map(stem)

/** Canonical tokens of a piece of text. */
export function tokens(text: string): string[] {
	return split(canonical(baseNormalise(text).replace(/\s+/g, ' ')))
}

/**
 * Normalised text and tokens of many lines at once: the synonym patterns run once over the whole
 * text (lines joined by a separator no pattern crosses), which is what makes a résumé cheap to read.
 */
export function tokenLines(lines: string[]): { norm: string; tokens: string[] }[] {
	const norms = baseNormalise(lines.join(`\n`)).split('\n')
	const canon = canonical(norms.join(` ${SEP} `)).split(SEP)
	return norms.map((norm, i) => ({ norm, tokens: split(canon[i] ?? '') }))
}

/** Words a requirement may contain that say nothing about the skill itself. */
export const FILLER = new Set([
	'and',
	'or',
	'of',
	'the',
	'a',
	'an',
	'in',
	'with',
	'on',
	'for',
	'to',
	'at',
	'as',
	'experience',
	'experienc',
	'knowledge',
	'strong',
	'solid',
	'proven',
	'hand',
	'handson',
	'working',
	'work',
	'skill',
	'using',
	'plu',
	'good',
	'excellent',
	'deep',
	'expert',
	'expertise',
	'proficiency',
	'proficient',
	'familiarity',
	'understand',
	'understanding',
	'minimum',
	'least',
	'over',
	'more',
	'than',
	'total',
	'overall',
	'professional',
	'relevant',
	'industry',
	'year',
	'yr',
	'required',
	'must',
	'have',
	'etc',
	'it',
	'field',
	'domain',
])

/** Version-like tokens ("17", "19c", "v8") are optional when matching. */
export const isVersion = (token: string) => /^v?\d+[a-z]?$/.test(token)
