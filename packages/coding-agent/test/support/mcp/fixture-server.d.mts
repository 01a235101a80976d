import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
/** See fixture-server.mjs for the options. */
export function buildServer(options?: Record<string, unknown>): Server;
