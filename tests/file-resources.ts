/**
 * What the running test file built for itself (`testDeps` with settings, `serveAppWith`): closed when the
 * file ends (tests/setup.ts). The files of a worker share one process (`--no-isolate`), and what one left
 * open went on in the next: an availability probe per set of dependencies on PostgreSQL, and Redis clients
 * reconnecting every two seconds to a Redis the file had stopped (they were the "outbound connections" a
 * later file's no-outbound check saw). Imports nothing, so the preload loads nothing of the app.
 */
const closers = new Set<() => Promise<unknown>>()

/** Closed when the running file ends. */
export function closeWhenFileEnds(close: () => Promise<unknown>) {
	closers.add(close)
}

export async function closeFileResources() {
	for (const close of closers) await close().catch(() => {})
	closers.clear()
}
