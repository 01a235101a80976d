// pi's own account logins (ChatGPT, GitHub Copilot), loaded by flows.ts's
// loadLoginFlows() when a login, a refresh or a request with a stored login
// needs them: their modules are not on the path of a run that uses API keys.
import { createGitHubCopilotLogin } from "./github-copilot.js";
import { createOpenAICodexLogin } from "./openai-codex.js";
import type { LoginFlow } from "./types.js";

export function builtinLoginFlows(): LoginFlow[] {
	return [createOpenAICodexLogin(), createGitHubCopilotLogin()];
}
