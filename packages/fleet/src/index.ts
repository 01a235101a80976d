// @pi/fleet: many pi runs across machines. BullMQ on Redis places and recovers
// runs; PostgreSQL holds sessions with the JSONL files' append-only rules.
export * from "./config.js";
export { openDatabase } from "./db.js";
export { LINES_CHANNEL, PgSessionStore } from "./pg-store.js";
