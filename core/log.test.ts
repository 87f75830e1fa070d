/**
 * A log line holds no character a terminal acts on: JSON escapes the C0 controls, and the logger
 * escapes the rest (C1 controls such as U+009B, DEL, U+2028/U+2029, direction marks) in every string
 * of the line: message, field names and values, nested values, an error's message. A raw U+009B from
 * an `MCP-Protocol-Version` header reached server.log at LOG_LEVEL=debug.
 */
import { expect, test } from 'bun:test'
import { createLogger } from './log.ts'

const HOSTILE = 'a\u009b31mb\u0085c\u007fd\u2028e\u2029f\u202eg\u001bh\n'

test('every string of a line is written with its control, separator and direction characters escaped, and reads back the same', () => {
	const lines: string[] = []
	const log = createLogger('debug', (line) => void lines.push(line))
	log.debug(`message ${HOSTILE}`, { [`field${HOSTILE}`]: HOSTILE, nested: { list: [HOSTILE] }, error: new Error(HOSTILE) })
	const [line] = lines
	expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/)
	expect(line).toContain('\\u009b')
	expect(line).toContain('\\u2028')
	const entry = JSON.parse(line!)
	expect(entry.msg).toBe(`message ${HOSTILE}`)
	expect(entry[`field${HOSTILE}`]).toBe(HOSTILE)
	expect(entry.nested.list[0]).toBe(HOSTILE)
	expect(entry.error.message).toBe(HOSTILE)
})
