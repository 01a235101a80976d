// Public surface of auto-retry (the retry chain of one prompt).
export * from "./auto-retry.js";
