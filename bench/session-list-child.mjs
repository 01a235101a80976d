// One listing measurement in a fresh process. Prints {coldMs, warmMs, count}.
const [impl, modulePath, root] = process.argv.slice(2);
const mod = await import(modulePath);
const timeIt = async (fn) => {
	const t = performance.now();
	const r = await fn();
	return [performance.now() - t, r];
};
let list;
if (impl === "ours") list = () => mod.listAllSessions(root);
else {
	process.env.PI_CODING_AGENT_DIR = root.replace(/\/sessions$/, "");
	list = () => mod.SessionManager.listAll();
}
const [coldMs, first] = await timeIt(list);
const [warmMs] = await timeIt(list);
console.log(JSON.stringify({ coldMs, warmMs, count: first.length, rssMiB: process.resourceUsage().maxRSS / 1024 }));
