/**
 * The shared browser of tests/browser.ts across test files (bun runs a worker's files in one process, one
 * after another, and a hook that times out goes on running while the next files run), and the
 * failure message of `textOrExplain` when the page itself stalls (issue 17: a wait after a 401 that
 * ended in bun's "timed out", with none of the details the message was meant to carry).
 */
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { axeProblems, browserState, closeBrowser, launchBrowser, pipeReport, reportWaitsOver, textOrExplain, watch } from '../browser.ts'

setDefaultTimeout(60_000) // two Chromium launches on a busy 2-core machine

afterAll(() => closeBrowser())

test('a browser asked for while the last one is still closing is a new one, and the loop stays awake while it is open', async () => {
	await closeBrowser()
	const first = await launchBrowser()
	expect(browserState()).toEqual({ open: 1, keepAwake: true })

	// An earlier file's afterAll, still closing (it timed out, so bun went on to the next file) …
	const closing = closeBrowser()
	// … while the next file asks for its browser.
	const second = await launchBrowser()
	expect(second).not.toBe(first)
	await closing
	expect(first.isConnected()).toBe(false)

	// The late close neither closed the new browser nor stopped the timer that keeps it readable.
	expect(second.isConnected()).toBe(true)
	expect(browserState()).toEqual({ open: 1, keepAwake: true })
	const page = await second.newPage()
	await page.setContent('<p role="alert">still here</p>')
	expect(await page.getByRole('alert').innerText({ timeout: 10_000 })).toBe('still here')

	await closeBrowser()
	expect(browserState()).toEqual({ open: 0, keepAwake: false })
	// Closing again (another file's afterAll) is harmless.
	await closeBrowser()
	expect(browserState()).toEqual({ open: 0, keepAwake: false })
})

test('a browser that crashed is not handed to the next file', async () => {
	const crashed = await launchBrowser()
	const gone = new Promise((resolve) => crashed.on('disconnected', resolve))
	// What a crash looks like to Playwright: the process is gone.
	const { processInfo } = await (await crashed.newBrowserCDPSession()).send('SystemInfo.getProcessInfo')
	const browserPid = processInfo.find((p) => p.type === 'browser')?.id
	expect(browserPid).toBeNumber()
	process.kill(browserPid!, 'SIGKILL')
	await gone
	expect(browserState()).toEqual({ open: 0, keepAwake: false })
	const next = await launchBrowser()
	expect(next).not.toBe(crashed)
	expect(next.isConnected()).toBe(true)
	await closeBrowser()
})

test('when the page stalls, the failure says so in seconds, well before the test times out', async () => {
	const ctx = await (await launchBrowser()).newContext()
	const page = await ctx.newPage()
	const seen = watch(page)
	// A renderer that never answers again: its main thread loops forever.
	await page.setContent('<p>no alert here</p><script>setTimeout(() => { for (;;) {} }, 50)</script>')
	await Bun.sleep(300)
	const started = Date.now()
	const failure = await textOrExplain(page, page.getByRole('alert'), 'alert', seen, 1_000).then(
		() => null,
		(e: Error) => e.message,
	)
	// The old probes (page text with the 30 s default, the document's state without limit) took
	// longer than the whole test is given.
	expect(Date.now() - started).toBeLessThan(15_000)
	expect(failure).toContain('no alert on about:blank')
	expect(failure).toContain('renderer: no answer')
	expect(failure).toContain('browser process: answers')
	expect(failure).toContain('keep-awake timer on')
	// The pipe is empty both ways: what is missing is Chromium's (its renderer's) answer, not bun's reading.
	expect(failure).toMatch(/pipe to Chromium: [1-9]\d* command\(s\) without an answer/)
	expect(failure).toContain('0 byte(s) waiting unread in the pipe, 0 read by bun and not passed on')
	expect(failure).toContain('0 byte(s) held by bun, 0 byte(s) in the pipe unread by Chromium')
	expect(failure).toMatch(/bun's event loop: longest pause \d+ ms/)
	await ctx.close()
})

test('when bun holds Chromium’s answer, the pipe report says so, and the watchdog writes it to stderr once', async () => {
	const browser = await launchBrowser()
	const page = await browser.newPage()
	await page.setContent('<p>ready</p>')
	// What a stalled read looks like: the read side of the pipe paused, as an event loop that does not
	// turn leaves it (Playwright's internals, as tests/browser-pipe.ts reads them).
	const transport = (
		browser as unknown as { _connection: { toImpl(x: unknown): { _connection: { _transport: { _pipeRead: { pause(): void; resume(): void } } } } } }
	)._connection.toImpl(browser)._connection._transport
	const logged: string[] = []
	const log = console.error
	console.error = (...args: unknown[]) => void logged.push(args.join(' '))
	reportWaitsOver(300)
	try {
		transport._pipeRead.pause()
		const answer = page.evaluate(() => 6 * 7)
		await Bun.sleep(900)
		const held = pipeReport().match(/\d+ command\(s\) without an answer, the newest Runtime\.\w+ (\(#\d+\)) sent \d+ ms ago/)
		expect(held).not.toBeNull()
		expect(pipeReport()).toMatch(/[1-9]\d* read by bun and not passed on/)
		// Commands Chromium never answers (Runtime.runIfWaitingForDebugger to a target gone, the stalled
		// page's of the test before) may be there too: the line about this evaluation is written once.
		const lines = logged.filter((l) => /^\[browser\] a command to Chromium has waited .*the newest Runtime\.(evaluate|callFunctionOn) /.test(l))
		expect(lines).toHaveLength(1)
		expect(lines[0]).toMatch(/read by bun and not passed on.*bun's event loop: longest pause/)
		transport._pipeRead.resume()
		expect(await answer).toBe(42)
		// The evaluation is answered and nothing is held any more. (Other commands may be in flight: the
		// bytes passed on can be events Playwright answers at once, such as a target to detach from.)
		expect(pipeReport()).not.toContain(held![1]!)
		expect(pipeReport()).toContain(' 0 read by bun and not passed on')
	} finally {
		transport._pipeRead.resume()
		reportWaitsOver(15_000)
		console.error = log
		await page.close()
	}
})

// axeProblems asks axe for violations only (the time of the page tours): each is still named, with its nodes.
test('axeProblems names every serious or critical violation of a page and the nodes it is on', async () => {
	const page = await (await launchBrowser()).newPage()
	try {
		await page.setContent('<main><h1>Jobs</h1><img src="a.png" id="first"><img src="b.png" id="second"><button id="empty"></button></main>')
		const problems = await axeProblems(page)
		expect(problems).toContainEqual(expect.stringMatching(/^critical image-alt: .* at #first, #second$/))
		expect(problems).toContainEqual(expect.stringMatching(/^critical button-name: .* at #empty$/))
	} finally {
		await page.close()
	}
})
