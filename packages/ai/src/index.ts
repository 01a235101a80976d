export * from "./cost.js";
export * from "./env-keys.js";
export * from "./event-stream.js";
export * from "./stream-writer.js";
export * from "./thinking.js";
export * from "./types.js";
