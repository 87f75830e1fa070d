/**
 * A certificate authority for tests, made with openssl in a temp folder, and certificates it signs.
 * Trusting it takes NODE_EXTRA_CA_CERTS, which Bun reads when it starts: code that must trust it
 * runs in a child process started with `NODE_EXTRA_CA_CERTS: authority.caFile`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binary } from './reliability/processes.ts'

export interface TestAuthority {
	readonly dir: string
	readonly caFile: string
	/** Key and certificate files for `name` (a DNS name), signed by the authority. */
	certificate(name: string): { keyFile: string; certFile: string }
	remove(): void
}

export function testAuthority(): TestAuthority {
	const openssl = binary('openssl', 'openssl')
	const dir = mkdtempSync(join(tmpdir(), 'benchline-tls-'))
	const run = (...args: string[]) => {
		const done = spawnSync(openssl, args, { cwd: dir })
		if (done.status !== 0) throw new Error(`openssl ${args[0]} failed: ${done.stderr}`)
	}
	run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Benchline test authority')
	return {
		dir,
		caFile: join(dir, 'ca.pem'),
		certificate(name) {
			writeFileSync(join(dir, `${name}.ext`), `subjectAltName=DNS:${name}\n`)
			run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`)
			run(
				'x509',
				'-req',
				'-in',
				`${name}.csr`,
				'-CA',
				'ca.pem',
				'-CAkey',
				'ca.key',
				'-CAcreateserial',
				'-out',
				`${name}.pem`,
				'-days',
				'2',
				'-extfile',
				`${name}.ext`,
			)
			return { keyFile: join(dir, `${name}.key`), certFile: join(dir, `${name}.pem`) }
		},
		remove: () => rmSync(dir, { recursive: true, force: true }),
	}
}
