/**
 * A write sent twice by mistake (a double click, a form posted again, a bulk action run twice) is
 * made once: the same thing by the same person within `REPEAT_WINDOW_MS` is taken for a repeat of
 * the first, which is answered instead (an interview scheduled, a message sent, a note, a to-do).
 * Each such write decides it under a lock held until its transaction ends, so two submissions at
 * once see each other. Doing the same thing on purpose twice within the window makes it once.
 */
export const REPEAT_WINDOW_MS = 2 * 60_000

/** Where the window of a write made at `now` begins. */
export const repeatWindowStart = (now: Date) => new Date(now.getTime() - REPEAT_WINDOW_MS)
