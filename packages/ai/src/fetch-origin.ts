// The global fetch as it was when pi-ai was first imported. Read here, in a
// module the entry (stream.ts) loads at once, not in provider-fetch.ts: that one
// loads with the first adapter, by which time a fetch installed since (a
// proxy's, a test's stub) would be taken for Node's own and bypassed.

/** Node's fetch as pi-ai found it; any other global fetch is the caller's and always used as is. */
export const startupFetch: typeof fetch = globalThis.fetch;
