/**
 * The voluntary self-identification questions US employers and federal contractors ask applicants
 * (EEO-1 categories for sex and race/ethnicity; VEVRAA for protected veterans; OFCCP form CC-305 for
 * disability). "I don't wish to answer" comes first, and is what an untouched form sends.
 */

export const DECLINED = 'declined'

export interface EeoQuestion {
	/** The form field and the report's choice of question. */
	readonly key: 'sex' | 'ethnicity' | 'veteran' | 'disability'
	readonly label: string
	/** [code, label] pairs; the codes are stored, the labels shown. */
	readonly options: readonly (readonly [string, string])[]
}

export const EEO_QUESTIONS: readonly EeoQuestion[] = [
	{
		key: 'sex',
		label: 'Sex',
		options: [
			[DECLINED, 'I don’t wish to answer'],
			['female', 'Female'],
			['male', 'Male'],
		],
	},
	{
		key: 'ethnicity',
		label: 'Race or ethnicity',
		options: [
			[DECLINED, 'I don’t wish to answer'],
			['hispanic_latino', 'Hispanic or Latino'],
			['white', 'White (not Hispanic or Latino)'],
			['black', 'Black or African American (not Hispanic or Latino)'],
			['pacific_islander', 'Native Hawaiian or Other Pacific Islander (not Hispanic or Latino)'],
			['asian', 'Asian (not Hispanic or Latino)'],
			['native_american', 'American Indian or Alaska Native (not Hispanic or Latino)'],
			['two_or_more', 'Two or More Races (not Hispanic or Latino)'],
		],
	},
	{
		key: 'veteran',
		label: 'Veteran status',
		options: [
			[DECLINED, 'I don’t wish to answer'],
			['protected_veteran', 'I identify as one or more of the classifications of protected veteran'],
			['not_protected_veteran', 'I am not a protected veteran'],
		],
	},
	{
		key: 'disability',
		label: 'Disability',
		options: [
			[DECLINED, 'I don’t wish to answer'],
			['has_disability', 'Yes, I have a disability (or previously had a disability)'],
			['no_disability', 'No, I do not have a disability and have not had one in the past'],
		],
	},
]

export type EeoAnswers = Record<EeoQuestion['key'], string>

export const questionOf = (key: string) => EEO_QUESTIONS.find((q) => q.key === key)

export const labelOf = (question: EeoQuestion, code: string) => question.options.find(([c]) => c === code)?.[1] ?? code
