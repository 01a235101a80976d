export * from "./cost.js";
export * from "./event-stream.js";
export * from "./stream-writer.js";
export * from "./types.js";
