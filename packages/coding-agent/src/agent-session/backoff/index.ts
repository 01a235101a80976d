// Public surface of the backoff primitives shared by auto-retry and summarisation retries.
export * from "./retry-policy.js";
export * from "./timers.js";
