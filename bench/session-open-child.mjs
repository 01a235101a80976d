// One measurement in a fresh process: import, then open + first projection.
// Prints {ms, cpuMs, importMs, rssMiB (peak), messages}. A third argument
// (ours only) is the session index directory to use (index-cache.ts); the
// index is written after the measurement, at close.
const [modulePath, file, indexDir] = process.argv.slice(2);
const t0 = performance.now();
const mod = await import(modulePath);
if (indexDir) mod.setSessionIndexDir(indexDir);
const t1 = performance.now();
const c1 = process.cpuUsage();
const sm = mod.SessionManager.open(file);
const ctx = sm.buildSessionContext();
const t2 = performance.now();
const cpu = process.cpuUsage(c1);
sm.close?.();
console.log(
	JSON.stringify({
		ms: t2 - t1,
		cpuMs: (cpu.user + cpu.system) / 1000,
		importMs: t1 - t0,
		rssMiB: process.resourceUsage().maxRSS / 1024,
		messages: ctx.messages.length,
	}),
);
