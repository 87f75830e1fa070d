/** Whether the database answers (core/http/availability.ts watches it): a leaf of types for the app's dependencies. */
export interface Availability {
	/** False while the database does not answer. */
	up(): boolean
	/** Resolves the next time the database stops answering. */
	whenDown(): Promise<void>
	stop(): void
}
