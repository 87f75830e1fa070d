/**
 * How far back the review queue looks for things a person has not seen yet (an AI interview result
 * not opened, a reply not read). A product rule, chosen over keeping a "waiting" row per person and
 * item (bench/README.md, "Portal pages at 1,000,000 candidates"):
 * - such an item is a notice, not work: after a month unopened it has gone cold (the application
 *   moved on, or the conversation did), and it stays where it lives: the inbox's Unread filter, the
 *   candidate's and the application's pages, `list_interview_results`;
 * - reading "not seen by this person" needs the person's seen-marks, which cover nearly all of the
 *   history: without a bound the sources walked it all to find a few unseen (56,533 results and
 *   32,662 conversations for 9 entries at 1,000,000 candidates, 155 ms each); with it, the walk is
 *   a month of activity whatever the history;
 * - stored per-person rows would have to follow every change of who may see what (hiring teams,
 *   roles, people joining: each reader with the inbox permission would need one for every reply).
 * Work items are not bounded: an application still in the first stage and a to-do from received
 * documents stay until someone deals with them, and are read by indexes that hold only those.
 */
export const UNSEEN_WINDOW_DAYS = 30

/** The earliest time an unseen item may have happened to still be in the queue. */
export const unseenSince = (now: Date) => new Date(now.getTime() - UNSEEN_WINDOW_DAYS * 86_400_000)
