import { expect, test } from 'bun:test'
import { defuse } from './untrusted.ts'

test('HTML is removed from untrusted text: known elements, and any tag with attributes', () => {
	expect(defuse('Hi <b>there</b><br/><script>alert(1)</script>')).toBe('Hi therealert(1)')
	expect(defuse('<IMG SRC=x>cv<iframe></iframe>')).toBe('cv')
	expect(defuse('<T onclick="steal()">x</T> <my-widget data-x=1>y')).toBe('x</T> y')
	expect(defuse('<svg><set attributeName=href to=//evil.example /></svg>ok')).toBe('ok')
})

test('type parameters and other angle-bracketed words that are not HTML stay as written', () => {
	expect(defuse('Skills: Java (List<T>, Map<String, Integer>, Optional<Employee>), C++ vector<int>')).toBe('Skills: Java (List<T>, Map<String, Integer>, Optional<Employee>), C++ vector<int>')
	expect(defuse('closing </T> and self-closing <T/> stay too')).toBe('closing </T> and self-closing <T/> stay too')
})
