// Test utilities of pi-agent-core, reusable by the layers above through the
// `@pi/agent-core/testing` export (development condition only).
export * from "./fixtures.js";
export * from "./scripted-stream.js";
