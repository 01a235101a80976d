// One measurement in a fresh process: import, then open + first projection.
// Prints {ms, importMs, rssMiB (peak), messages}.
const [modulePath, file] = process.argv.slice(2);
const t0 = performance.now();
const { SessionManager } = await import(modulePath);
const t1 = performance.now();
const sm = SessionManager.open(file);
const ctx = sm.buildSessionContext();
const t2 = performance.now();
console.log(
	JSON.stringify({
		ms: t2 - t1,
		importMs: t1 - t0,
		rssMiB: process.resourceUsage().maxRSS / 1024,
		messages: ctx.messages.length,
	}),
);
