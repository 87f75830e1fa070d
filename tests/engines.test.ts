/**
 * A fresh `npm install` on the oldest Node.js we ask for prints no EBADENGINE warning: every package the
 * lock file installs must accept that version. Two upgrades (google-auth-library 11, ical-generator 11) once
 * brought the warning back silently, because nothing but a person reading the install's output noticed.
 */
import { expect, test } from 'bun:test'

const manifest = await Bun.file(new URL('../package.json', import.meta.url)).json()
const lock = await Bun.file(new URL('../package-lock.json', import.meta.url)).json()

/** Our own `engines.node` is written as ">=X.Y" (or ">=X.Y.Z"): the oldest Node.js the README asks for. */
function oldestSupported(range: string): string {
	const found = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range.trim())
	if (!found) throw new Error(`package.json engines.node should read ">=X.Y", not "${range}"`)
	return `${found[1]}.${found[2]}.${found[3] ?? 0}`
}

test('every locked package accepts the oldest Node.js package.json asks for', () => {
	const oldest = oldestSupported(manifest.engines.node)
	const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
		.filter(([path, entry]) => path && entry.engines?.node && !Bun.semver.satisfies(oldest, entry.engines.node))
		.map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants node ${entry.engines?.node}`)
	expect(refusing).toEqual([])
})

test('the README names the same oldest Node.js as package.json', async () => {
	const readme = await Bun.file(new URL('../README.md', import.meta.url)).text()
	const [major, minor] = oldestSupported(manifest.engines.node).split('.')
	expect(readme).toContain(`Node.js (${major}.${minor} or later`)
})
