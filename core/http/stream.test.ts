import { describe, expect, test } from 'bun:test'
import { createLogger } from '../log.ts'
import { textStream } from './stream.ts'

const lines: string[] = []
const log = createLogger('debug', (line) => lines.push(line))

describe('textStream', () => {
	test('the chunks as the client reads them', async () => {
		async function* chunks() {
			yield 'a'
			yield 'b'
		}
		expect(await new Response(await textStream(chunks(), log)).text()).toBe('ab')
	})

	test('a failure before the first chunk is thrown before any answer begins (the route answers it as an error)', async () => {
		// biome-ignore lint/correctness/useYield: fails at once, as a refused first query does
		async function* failing(): AsyncGenerator<string> {
			throw new Error('refused at the start')
		}
		await expect(textStream(failing(), log)).rejects.toThrow('refused at the start')
	})

	test('a failure once the answer has begun is logged (without the statement’s values) and fails the body', async () => {
		lines.length = 0
		async function* failing() {
			yield 'header\n'
			const error = new Error('Failed query: select 1 where x = $1\nparams: Fatima Wilson', {
				cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
			})
			throw error
		}
		const body = new Response(await textStream(failing(), log))
		await expect(body.text()).rejects.toThrow()
		expect(lines.some((l) => l.includes('a streamed answer failed after it had begun'))).toBe(true)
		expect(lines.join('\n')).not.toContain('Fatima Wilson')
	})
})
