/**
 * Watching a process's resident memory while a test runs: the peak of the process itself (VmRSS
 * from /proc, sampled every 10 ms), and of its children running a given script (how many at once,
 * and the most memory one of them held).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { residentBytes } from '../core/child-task.ts'

export interface MemoryWatch {
	startBytes: number
	peakBytes: number
	/** Peak minus start. */
	growthBytes: number
	/** The most children running `script` seen at once. */
	mostChildren: number
	/** The most resident memory one such child was seen holding. */
	peakChildBytes: number
}

function childrenOf(pid: number): number[] {
	try {
		return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
	} catch {
		return []
	}
}

const runs = (pid: number, script: string) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script)
	} catch {
		return false
	}
}

export function watchMemory(pid = process.pid, script = 'resume-reader.ts'): { stop(): MemoryWatch } {
	const startBytes = residentBytes(pid) ?? 0
	const seen: MemoryWatch = { startBytes, peakBytes: startBytes, growthBytes: 0, mostChildren: 0, peakChildBytes: 0 }
	const sample = () => {
		seen.peakBytes = Math.max(seen.peakBytes, residentBytes(pid) ?? 0)
		const readers = childrenOf(pid).filter((child) => runs(child, script))
		seen.mostChildren = Math.max(seen.mostChildren, readers.length)
		for (const child of readers) seen.peakChildBytes = Math.max(seen.peakChildBytes, residentBytes(child) ?? 0)
	}
	const timer = setInterval(sample, 10)
	return {
		stop() {
			clearInterval(timer)
			sample()
			return { ...seen, growthBytes: seen.peakBytes - seen.startBytes }
		},
	}
}

export const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
