/**
 * The receiver of bench/webhooks.ts, in its own process: answers every POST with 204 at once and
 * keeps, per delivery, the event's time (the body's `timestamp`) and the arrival time (ms since the
 * epoch, this machine's clock). `GET /stats` says how many, `GET /stats?all` returns them.
 */
const list: [number, number][] = []
Bun.serve({
	port: Number(process.env.RECEIVER_PORT),
	hostname: '127.0.0.1',
	async fetch(request) {
		if (request.method === 'GET') return Response.json(new URL(request.url).searchParams.has('all') ? { n: list.length, list } : { n: list.length, list: [] })
		const arrived = Date.now()
		const body = (await request.json()) as { timestamp: string }
		list.push([Date.parse(body.timestamp), arrived])
		return new Response(null, { status: 204 })
	},
})
