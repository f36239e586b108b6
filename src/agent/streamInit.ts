// The first stream-json line (`system` / `init`), with the fields of Claude Code 2.1.332's init that
// have a meaning in Keel: the folder, session, tools, MCP servers, model, `permissionMode`, custom
// commands, agent types, skills, the key's source, the sandbox and the extra working folders. Keel adds
// its provider, its version and whether the session was resumed.
import { randomUUID } from "../tool/lazyCrypto.ts";
import { agentTypeRoots, loadAgentTypes } from "../tools/agent/agentTypes.ts";
import { discoverSkills, skillRoots } from "../tools/skill/discoverSkills.ts";
import { keelVersion } from "../version.ts";
import type { AgentSession } from "./createAgent.ts";
import { listCustomCommands } from "./customCommands.ts";

/** Which variable the API key came from, in Claude Code's words (`none` when no key is used). */
function apiKeySource(session: AgentSession, env: NodeJS.ProcessEnv): string {
  const { apiKey, provider } = session.config;
  if (apiKey === "not-needed") return "none";
  if (env.KEEL_API_KEY === apiKey) return "KEEL_API_KEY";
  return provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
}

export async function initRecord(
  session: AgentSession,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown>> {
  const { agent } = session;
  const state = agent.context.getAppState();
  const permissions = state.toolPermissionContext;
  const root = permissions.projectRoot;
  const offered = agent.pool.offered();
  const servers = [
    ...new Set(offered.flatMap((tool) => (tool.mcpInfo ? [tool.mcpInfo.serverName] : []))),
  ].map((name) => ({ name, status: "connected" }));
  const [commands, agentTypes, skills] = await Promise.all([
    listCustomCommands(agent, env).catch(() => []),
    loadAgentTypes(agentTypeRoots(root, env)).then(
      (loaded) => loaded.types,
      () => [],
    ),
    discoverSkills(skillRoots(root, env)).catch(() => []),
  ]);
  return {
    type: "system",
    subtype: "init",
    cwd: state.cwd,
    session_id: agent.sessionId,
    tools: offered.map((tool) => tool.name),
    mcp_servers: servers,
    model: agent.model,
    permissionMode: permissions.mode,
    slash_commands: commands.map((command) => command.name),
    apiKeySource: apiKeySource(session, env),
    output_style: "default",
    agents: agentTypes.map((type) => type.name),
    skills: skills.map((skill) => skill.name),
    plugins: [],
    uuid: randomUUID(),
    sandbox_enabled: permissions.sandbox.enabled,
    original_cwd: root,
    additional_directories: permissions.additionalWorkingDirectories.map((dir) => dir.path),
    // Keel's own.
    provider: session.config.provider,
    keel_version: keelVersion(),
    ...(session.resumed ? { resumed: true } : {}),
  };
}
