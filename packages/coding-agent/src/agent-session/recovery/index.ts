// Public surface of post-run recovery (retry, overflow compaction, threshold compaction, queued messages).
export * from "./create-recovery.js";
export * from "./recovery.js";
