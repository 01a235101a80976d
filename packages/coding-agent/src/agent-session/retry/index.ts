// Public surface of auto-retry and post-run recovery.
export * from "./auto-retry.js";
export * from "./create-recovery.js";
export * from "./recovery.js";
export * from "./retry-policy.js";
export * from "./timers.js";
