/** A response body read from an async generator of text, chunk by chunk as the client reads. */
export function textStream(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder()
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			const next = await chunks.next()
			if (next.done) controller.close()
			else controller.enqueue(encoder.encode(next.value))
		},
		// The client went away: the generator's `finally` runs and no further page is read.
		cancel: () => void chunks.return(undefined),
	})
}
