/**
 * nginx (Debian's package) as the load balancer in front of several instances, run as our own
 * process (`daemon off`) with its configuration in a temp folder, on loopback ports.
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { binary, freePort, sleep, tcpOpen, tempDir, track, waitFor } from './processes.ts'

export interface Nginx {
	readonly port: number
	readonly url: string
	stop(): Promise<void>
}

/**
 * nginx in front of the instances (round robin). Failed connections move on to the next instance
 * for every request; for the publish API (idempotent by vendorJobId) also requests already sent.
 * `X-Served-By` names the instance that answered (tests use it; a deployment would leave it out).
 */
export async function startNginx(upstreamPorts: number[], port?: number): Promise<Nginx> {
	const nginx = binary('nginx', 'nginx')
	const dir = tempDir('bl-nginx-')
	port ??= await freePort()
	for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
		mkdirSync(join(dir, sub))
		chmodSync(join(dir, sub), 0o777)
	}
	writeFileSync(join(dir, 'nginx.conf'), nginxConfig({ port, upstreamPorts, tempDir: dir, testHeaders: true }))
	const proc = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] })
	let errors = ''
	proc.stderr!.on('data', (c: Buffer) => (errors += c.toString()))
	const untrack = track(() => proc.kill('SIGKILL'))
	proc.once('exit', untrack)
	await waitFor(
		`nginx on ${port}`,
		() => {
			if (proc.exitCode !== null) throw new Error(`nginx exited: ${errors}`)
			return tcpOpen(port!)
		},
		10_000,
		50,
	).catch((e) => {
		throw new Error(`${e.message} ${errors}`)
	})
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		stop: async () => {
			if (proc.exitCode === null) {
				const exited = new Promise((r) => proc.once('exit', r))
				proc.kill('SIGQUIT')
				await Promise.race([exited, sleep(3000)])
				if (proc.exitCode === null) proc.kill('SIGKILL')
			}
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

/** The nginx configuration the README documents (with loopback ports and a temp folder for the tests). */
export function nginxConfig(o: { port: number; upstreamPorts: number[]; tempDir: string; testHeaders?: boolean }): string {
	const t = o.tempDir
	return `daemon off;
worker_processes 1;
pid ${t}/nginx.pid;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path ${t}/body;
	proxy_temp_path ${t}/proxy;
	fastcgi_temp_path ${t}/fastcgi;
	uwsgi_temp_path ${t}/uwsgi;
	scgi_temp_path ${t}/scgi;
	client_max_body_size 2m;
	client_header_timeout 10s;
	client_body_timeout 10s;
	send_timeout 30s;
	upstream benchline {
${o.upstreamPorts.map((p) => `		server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
		keepalive 32;
	}
	server {
		listen 127.0.0.1:${o.port};
		proxy_http_version 1.1;
		proxy_set_header Connection "";
		proxy_set_header Host $http_host;
		proxy_set_header X-Forwarded-For $remote_addr;
		proxy_set_header X-Forwarded-Proto $scheme;
		proxy_connect_timeout 2s;
		proxy_read_timeout 60s;
		proxy_buffering off;
		proxy_next_upstream error timeout;
		proxy_next_upstream_tries 3;
${o.testHeaders ? '		add_header X-Served-By $upstream_addr always;\n' : ''}		location / {
			proxy_pass http://benchline;
		}
		# Publishing, changing and closing a job are idempotent (keyed by vendorJobId): safe to resend
		# to another instance even when the first one died after receiving the request.
		location /api/v1/jobs {
			proxy_pass http://benchline;
			proxy_next_upstream error timeout non_idempotent;
		}
	}
}
`
}
