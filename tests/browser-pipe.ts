/**
 * What passes on Playwright's pipe to Chromium, for failure messages (issue 17: a browser step
 * that, rarely and only in full CI runs, waits 30 s after the server has answered).
 *
 * Playwright talks to Chromium over two pipes (--remote-debugging-pipe: its commands go to the
 * browser's fd 3, answers and events come back on fd 4), read and written by bun's event loop.
 * When a step stalls, three different things can be at fault, and this tells them apart:
 *
 * - bun does not read: bytes from Chromium wait in the pipe, unread, while no data event came;
 * - bun does not write: our commands are held in the socket's buffer, or wait in the pipe unread
 *   by Chromium (then Chromium's I/O thread is stuck);
 * - Chromium does not answer: both pipes are empty and commands have no answer (the renderer or
 *   the browser is busy or hung; `textOrExplain`'s probes say which).
 *
 * Bytes in a pipe are counted with ioctl(FIONREAD) through bun:ffi (Linux answers it on either end).
 * Everything here only reads Playwright's internals; when they are not where they were (another
 * Playwright version), the report says the pipe is not watched, and nothing else changes.
 */
import { dlopen, FFIType, ptr } from 'bun:ffi'
import type { Browser } from 'playwright-core'

interface PipeSocket {
	_handle?: { fd?: number }
	readableLength?: number
	writableLength?: number
	on(event: 'data', listener: (chunk: Buffer) => void): unknown
}

interface PlaywrightPipe {
	_pipeRead: PipeSocket
	_pipeWrite: PipeSocket
	/** Chunks of a message whose end (NUL) has not come yet. */
	_pendingBuffers?: Buffer[]
	send(message: { id?: number; method?: string; sessionId?: string }): void
	onmessage?: (message: { id?: number; method?: string; params?: { sessionId?: string } }) => void
}

/** The server side of an in-process Playwright browser: its CDP connection's transport. */
function transportOf(browser: Browser): PlaywrightPipe | undefined {
	const client = browser as unknown as { _connection?: { toImpl?: (x: unknown) => unknown } }
	const server = client._connection?.toImpl?.(browser) as { _connection?: { _transport?: PlaywrightPipe } } | undefined
	const transport = server?._connection?._transport
	return transport?._pipeRead && transport._pipeWrite ? transport : undefined
}

let libc: { symbols: { ioctl(fd: number, request: number, out: unknown): number } } | undefined
const FIONREAD = 0x541b

/** Bytes waiting in the pipe behind `fd`, or "?" when that cannot be asked. */
function bytesInPipe(fd: number | undefined): string {
	if (fd === undefined) return '?'
	try {
		libc ??= dlopen('libc.so.6', { ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 } })
		const count = new Int32Array(1)
		return libc.symbols.ioctl(fd, FIONREAD, ptr(count)) === 0 ? String(count[0]) : '?'
	} catch {
		return '?'
	}
}

export interface PipeWatch {
	/** One line: commands without an answer, what was read and written last, bytes waiting each way. */
	report(): string
	/**
	 * The newest command without an answer and how long it has waited (ms): what a step waits on.
	 * (Some commands are never answered, e.g. Runtime.runIfWaitingForDebugger to a target that went
	 * away: the oldest unanswered one can be such a leftover, so it is not the one to watch.)
	 */
	newest(): { method: string; id: number; waited: number } | undefined
}

/** Watches the pipe of a browser launched by playwright-core in this process. */
export function watchPipe(browser: Browser): PipeWatch | undefined {
	const transport = transportOf(browser)
	if (!transport) return undefined
	const unanswered = new Map<number, { method: string; at: number; session?: string }>()
	let lastRead = 0
	let lastHandled = 0
	let lastSent = 0
	const send = transport.send.bind(transport)
	transport.send = (message) => {
		lastSent = Date.now()
		if (typeof message.id === 'number') unanswered.set(message.id, { method: String(message.method), at: lastSent, session: message.sessionId })
		send(message)
	}
	const handle = transport.onmessage
	transport.onmessage = (message) => {
		lastHandled = Date.now()
		if (typeof message.id === 'number') unanswered.delete(message.id)
		// A page that closes takes its session along: what was sent to it will never be answered.
		if (message.method === 'Target.detachedFromTarget')
			for (const [id, sent] of unanswered) if (sent.session === message.params?.sessionId) unanswered.delete(id)
		handle?.(message)
	}
	transport._pipeRead.on('data', () => {
		lastRead = Date.now()
	})
	const ago = (at: number) => (at ? `${Date.now() - at} ms ago` : 'never')
	const newest = () => {
		const id = [...unanswered.keys()].at(-1)
		const sent = id === undefined ? undefined : unanswered.get(id)
		return id === undefined || !sent ? undefined : { id, method: sent.method, waited: Date.now() - sent.at }
	}
	return {
		newest,
		report() {
			const last = newest()
			const waiting = last
				? `${unanswered.size} command(s) without an answer, the newest ${last.method} (#${last.id}) sent ${last.waited} ms ago`
				: 'every command answered'
			return (
				`pipe to Chromium: ${waiting}; from Chromium: last read ${ago(lastRead)}, last handed to Playwright ${ago(lastHandled)}, ` +
				`${bytesInPipe(transport._pipeRead._handle?.fd)} byte(s) waiting unread in the pipe, ${transport._pipeRead.readableLength ?? '?'} read by bun and not passed on, ` +
				`${(transport._pendingBuffers ?? []).reduce((sum, b) => sum + b.length, 0)} of a message not yet whole; to Chromium: last sent ${ago(lastSent)}, ` +
				`${transport._pipeWrite.writableLength ?? '?'} byte(s) held by bun, ${bytesInPipe(transport._pipeWrite._handle?.fd)} byte(s) in the pipe unread by Chromium`
			)
		},
	}
}
