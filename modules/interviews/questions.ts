/** The questions of an AI video interview, drawn from the job's must-haves. */

export const VERDICTS = ['recommended', 'consider', 'not_recommended'] as const
export type Verdict = (typeof VERDICTS)[number]
export const VERDICT_LABELS: Record<Verdict, string> = { recommended: 'recommended', consider: 'worth considering', not_recommended: 'not recommended' }

export interface PlannedQuestion {
	prompt: string
	competency: string
}

/** An opening question, one per must-have (at most four, years-of-experience lines skipped), and a closing one. */
export function questionsFor(job: { title: string; mustHave: string[] }): PlannedQuestion[] {
	const skills = job.mustHave.filter((m) => !/years?/i.test(m)).slice(0, 4)
	return [
		{ prompt: `Tell us about yourself and why the ${job.title} role interests you.`, competency: 'Motivation' },
		...skills.map((s) => ({ prompt: `Describe a recent project where you used ${s}. What was your part, and what would you do differently?`, competency: s })),
		{ prompt: 'Tell us about a time you disagreed with a teammate or client. How did you resolve it?', competency: 'Communication' },
	]
}
