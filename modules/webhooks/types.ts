/** Which event types endpoints subscribe to, and which of them a vendor may. */
import { JOB_EVENTS } from '../jobs/index.ts'
import { CANDIDATE_EVENTS } from '../candidates/index.ts'
import { DOCUMENT_EVENTS, submissionCreated } from '../documents/index.ts'
import { interviewCompleted } from '../interviews/index.ts'

/** Sent on demand to one endpoint (Send test event); never subscribed to. */
export const TEST_EVENT = 'webhook.test'

const EVENTS = [...JOB_EVENTS, ...CANDIDATE_EVENTS, ...DOCUMENT_EVENTS, interviewCompleted]

/** Every domain event an endpoint may subscribe to, in the order the page lists them. */
export const SUBSCRIBABLE: readonly string[] = EVENTS.map((e) => e.type)

/** What each one means, as the module that declares it says (the page's checkboxes). */
export const EVENT_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(EVENTS.map((e) => [e.type, e.description]))

/** A vendor's endpoint hears of its own jobs and the candidates submitted to it, nothing else. */
export const VENDOR_SUBSCRIBABLE: readonly string[] = [...JOB_EVENTS.map((e) => e.type), submissionCreated.type]

/** The events whose data names a vendor (`vendorId`): only that vendor's endpoints receive them. */
export const VENDOR_SCOPED = new Set(VENDOR_SUBSCRIBABLE)
