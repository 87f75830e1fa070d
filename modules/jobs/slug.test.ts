/** A job's address words: accents dropped, and the Latin letters that have none spelled in ASCII ("Straße" → strasse, not stra-e). */
import { expect, test } from 'bun:test'
import { slugify } from './rows.ts'

test('titles become lower-case ASCII words joined by dashes', () => {
	expect(slugify('Senior Java Developer (Remote)')).toBe('senior-java-developer-remote')
	expect(slugify('Développeur Été')).toBe('developpeur-ete')
	expect(slugify('Straße Ærø Łódź Œuvre Þór')).toBe('strasse-aero-lodz-oeuvre-thor')
	expect(slugify('STRASSE ẞ')).toBe('strasse-ss')
	expect(slugify('😀 ☃')).toBe('job')
})
