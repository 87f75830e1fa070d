/**
 * A real DNS server for the tests: dnsmasq (Debian's `dnsmasq-base`) on a loopback port, answering
 * for the test domains (`.example`, `.test`) alone: a name it was not given is NXDOMAIN, as a real
 * zone answers. dnsmasq reads its TXT records at start, so setting a record restarts it on the same
 * port (the app under test keeps `DNS_SERVERS=127.0.0.1:<port>`).
 */
import { createSocket } from 'node:dgram'
import { existsSync } from 'node:fs'

const DNSMASQ = ['/usr/sbin/dnsmasq', '/usr/bin/dnsmasq'].find((p) => existsSync(p)) ?? Bun.which('dnsmasq')

export interface TestDns {
	/** For `DNS_SERVERS`. */
	server: string
	/** Sets the TXT record(s) at `name` (none: removes it) and restarts the server with them. */
	setTxt(name: string, ...values: string[]): Promise<void>
	/** Makes `name` a CNAME of `target` (a name this server answers for: dnsmasq follows it), and restarts the server. */
	setCname(name: string, target: string): Promise<void>
	stop(): Promise<void>
}

/**
 * A port free now on 127.0.0.1 for UDP and for TCP: dnsmasq listens on both, and a port free for UDP
 * alone was once held over TCP (a connection's local port) and dnsmasq refused to start.
 */
async function freePort(): Promise<number> {
	for (let tries = 1; ; tries++) {
		const socket = createSocket('udp4')
		await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
		const { port } = socket.address()
		await new Promise<void>((resolve) => socket.close(() => resolve()))
		try {
			Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } }).stop(true)
			return port
		} catch (error) {
			if (tries >= 20) throw error
		}
	}
}

/** dnsmasq could not bind its port: another process took it between the check and the start. */
const portTaken = (error: unknown) => /Address already in use/.test(String(error))

export async function startDns(): Promise<TestDns> {
	if (!DNSMASQ) throw new Error('dnsmasq is not installed: run `apt-get install -y dnsmasq-base` (the single sign-on domain tests need a real DNS server)')
	let port = await freePort()
	const records = new Map<string, string[]>()
	const cnames = new Map<string, string>()
	let child: ReturnType<typeof Bun.spawn> | undefined
	const start = async () => {
		// No shell between: the value is passed as it is (a comma would start a second string).
		const txt = [...records].flatMap(([name, values]) => values.map((v) => `--txt-record=${name},${v}`))
		const aliases = [...cnames].map(([name, target]) => `--cname=${name},${target}`)
		child = Bun.spawn(
			[
				DNSMASQ,
				'--keep-in-foreground',
				'--conf-file=/dev/null',
				`--port=${port}`,
				'--listen-address=127.0.0.1',
				'--bind-interfaces',
				'--no-resolv',
				'--no-hosts',
				'--local=/example/',
				'--local=/test/',
				...txt,
				...aliases,
			],
			{ stdout: 'ignore', stderr: 'pipe' },
		)
		await waitUntilAnswering(port, child)
	}
	const stop = async () => {
		if (!child) return
		child.kill()
		await child.exited
		child = undefined
	}
	// A port taken before dnsmasq bound it: at the first start, another port; at a restart (the app
	// under test keeps this one), the same port again a moment later.
	const startHolding = async (first: boolean) => {
		for (let attempt = 1; ; attempt++) {
			try {
				return await start()
			} catch (error) {
				if (attempt >= 5 || !portTaken(error)) throw error
				child = undefined
				if (first) port = await freePort()
				else await Bun.sleep(200)
			}
		}
	}
	await startHolding(true)
	return {
		server: `127.0.0.1:${port}`,
		async setTxt(name, ...values) {
			if (values.length) records.set(name, values)
			else records.delete(name)
			await stop()
			await startHolding(false)
		},
		async setCname(name, target) {
			cnames.set(name, target)
			await stop()
			await startHolding(false)
		},
		stop,
	}
}

/** dnsmasq is ready once it answers a query (it binds before it answers, but a query tells for sure). */
async function waitUntilAnswering(port: number, child: ReturnType<typeof Bun.spawn>): Promise<void> {
	const { Resolver } = await import('node:dns/promises')
	const resolver = new Resolver({ timeout: 200, tries: 1 })
	resolver.setServers([`127.0.0.1:${port}`])
	for (let i = 0; i < 50; i++) {
		if (child.exitCode !== null) throw new Error(`dnsmasq exited ${child.exitCode}: ${await new Response(child.stderr as ReadableStream).text()}`)
		try {
			await resolver.resolveTxt('ready.example')
			return
		} catch (error) {
			if ((error as { code?: string }).code === 'ENOTFOUND') return
		}
		await Bun.sleep(50)
	}
	throw new Error('dnsmasq did not answer within 10 s')
}
