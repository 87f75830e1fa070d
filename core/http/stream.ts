import type { Logger } from '../log.ts'

/**
 * A response body read from an async generator of text, chunk by chunk as the client reads.
 *
 * The first chunk is read before the body is handed over, so a failure at the start (a refused
 * filter, the database away) is thrown here and answered like any other error, before a status is
 * sent. A failure later, once the answer has begun, is logged and ends the body as failed (the
 * client sees an incomplete download), never as an unhandled error that resets the connection and
 * prints the failed statement with its values.
 */
export async function textStream(chunks: AsyncGenerator<string>, log: Logger): Promise<ReadableStream<Uint8Array>> {
	const encoder = new TextEncoder()
	let first: IteratorResult<string> | undefined = await chunks.next()
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				const next = first ?? (await chunks.next())
				first = undefined
				if (next.done) controller.close()
				else controller.enqueue(encoder.encode(next.value))
			} catch (error) {
				log.error('a streamed answer failed after it had begun', { error })
				controller.error(error)
			}
		},
		// The client went away: the generator's `finally` runs and no further page is read.
		cancel: () => void chunks.return(undefined),
	})
}
