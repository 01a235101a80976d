// 200 skills + 200 prompt templates on disk: time to discover and load them
// (ours: DefaultResourceLoader.reload; 1.6.0: its loadSkills + loadPromptTemplates,
// run in a Node 22 child when REF16_NODE is set) and the system-prompt bytes the
// 200 skills add. Run: npx tsx bench/resources-load.bench.ts
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultResourceLoader } from "../packages/coding-agent/src/resources/resource-loader.js";
import { formatSkillsSection } from "../packages/coding-agent/src/resources/skills.js";

const root = mkdtempSync(join(tmpdir(), "pi-bench-res-"));
const agentDir = join(root, "agent");
for (let i = 0; i < 200; i++) {
	const dir = join(agentDir, "skills", `skill-${i}`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "SKILL.md"),
		`---\nname: skill-${i}\ndescription: Does task number ${i} when the user asks for it, with care.\n---\n# Skill ${i}\n\nSteps.\n`,
	);
}
mkdirSync(join(agentDir, "prompts"), { recursive: true });
for (let i = 0; i < 200; i++)
	writeFileSync(join(agentDir, "prompts", `tpl-${i}.md`), `---\ndescription: Template ${i}\n---\nDo $1 for ${i}.\n`);

const runs: number[] = [];
let loader: DefaultResourceLoader | undefined;
for (let r = 0; r < 5; r++) {
	loader = new DefaultResourceLoader({ cwd: root, agentDir, homeDir: root });
	const t = performance.now();
	await loader.reload();
	runs.push(performance.now() - t);
}
const skills = loader?.getSkills() ?? [];
const section = formatSkillsSection(skills, "read");
console.log(
	`ours: skills=${skills.length} templates=${loader?.getPromptTemplates().length} reload ms (5 runs) = ${runs.map((x) => x.toFixed(1)).join(", ")}`,
);
console.log(`skills section: ${Buffer.byteLength(section)} bytes, ~${Math.round(section.length / 4)} tokens (chars/4)`);
const ref = process.env.REF16_NODE;
if (ref) {
	const script = `import{loadSkills}from"/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/core/skills.js";import{loadPromptTemplates}from"/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/core/prompt-templates.js";const o={cwd:${JSON.stringify(root)},agentDir:${JSON.stringify(agentDir)}};const r=[];let n;for(let i=0;i<5;i++){const t=performance.now();const s=loadSkills({...o,skillPaths:[],includeDefaults:true});const p=loadPromptTemplates({...o,promptPaths:[],includeDefaults:true});r.push(performance.now()-t);n=[s.skills.length,p.templates.length]}console.log("1.6.0: skills="+n[0]+" templates="+n[1]+" load ms (5 runs) = "+r.map(x=>x.toFixed(1)).join(", "))`;
	console.log(execFileSync(ref, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim());
}
rmSync(root, { recursive: true, force: true });
