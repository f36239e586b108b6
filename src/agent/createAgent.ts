// Building an agent session from loaded settings and flags: which model, the provider, the tool pool,
// hooks, the classifier for `auto` mode, the transcript, and the saved session to resume.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { JsonlAuditSink } from "../audit/jsonlSink.ts";
import { HookRunner, sessionFromContext } from "../hooks/runner.ts";
import { lspOptionsFromSettings } from "../lsp/servers.ts";
import type { PipelineServices, Prompter } from "../pipeline/services.ts";
import type { LoadedSettings } from "../settings/load.ts";
import { userHomeDir } from "../settings/locations.ts";
import { workingDirectories } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import type { Tool } from "../tool/Tool.ts";
import { deferMcpTools, parseToolSearchSetting } from "../tools/tool-search/deferMcpTools.ts";
import { Agent } from "./Agent.ts";
import { type AgentHooks, hooksFromRunner, NO_HOOKS } from "./agentHooks.ts";
import { ModelClassifier } from "./classifier.ts";
import { agentSettingsFrom, type ModelConfig, type ModelFlags, resolveModelConfig } from "./config.ts";
import { ProviderError } from "./errors.ts";
import { createProvider } from "./providers/index.ts";
import { buildSystemPrompt } from "./systemPrompt.ts";
import { findSession, readTranscript, type SessionState, Transcript, transcriptDir } from "./transcript.ts";

export interface AgentFlags extends ModelFlags {
  maxTurns?: number;
  maxBudgetUsd?: number;
  /** `--resume` alone is `true`: the latest session. */
  resume?: string | boolean;
  continue?: boolean;
  appendSystemPrompt?: string;
  /** `--system-prompt`: replaces Keel's instructions and environment section. */
  systemPrompt?: string;
  /** Extended thinking budget in tokens. */
  thinking?: number;
  classifierModel?: string;
}

export interface AgentSessionInput {
  settings: LoadedSettings;
  tools: Tool[];
  services: PipelineServices;
  flags: AgentFlags;
  interactive: boolean;
  prompter?: Prompter;
  env?: NodeJS.ProcessEnv;
}

export interface AgentSession {
  agent: Agent;
  config: ModelConfig;
  transcript: Transcript;
  hooks: AgentHooks;
  /** Messages for the person from SessionStart hooks. */
  notices: string[];
  /** The project folder is trusted: "always" answers may be saved in its local settings. */
  trusted: boolean;
  /** The saved session picked up by --resume / --continue. */
  resumed?: SessionState;
  /** Ends what the session started outside the agent (MCP servers, background shells, the terminal). */
  close?: () => void;
}

/** A setup problem a person must fix (no key, unknown provider, no session to resume). */
export class AgentSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentSetupError";
  }
}

function pickResume(flags: AgentFlags, dir: string): SessionState | undefined {
  if (!flags.continue && (flags.resume === undefined || flags.resume === false)) return undefined;
  const id = typeof flags.resume === "string" ? flags.resume : undefined;
  const found = findSession(dir, id);
  if ("error" in found) throw new AgentSetupError(found.error);
  const state = readTranscript(found.path);
  return { ...state, sessionId: state.sessionId || found.sessionId };
}

export async function createAgentSession(input: AgentSessionInput): Promise<AgentSession> {
  const { settings, flags } = input;
  const env = { ...(input.env ?? process.env), ...settings.env };
  let config: ModelConfig;
  try {
    config = resolveModelConfig(
      flags,
      env,
      agentSettingsFrom(settings.sources as Array<{ settings: Record<string, unknown> }>),
    );
  } catch (error) {
    if (error instanceof ProviderError) throw new AgentSetupError(error.message);
    throw error;
  }
  const dir = transcriptDir(settings.projectRoot, env);
  const resumed = pickResume(flags, dir);
  const provider = await createProvider({
    provider: config.provider,
    apiKey: config.apiKey,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
  });
  const sessionId = resumed?.sessionId ?? randomUUID();
  // MCP tools too large for the context wait behind ToolSearch (ENABLE_TOOL_SEARCH: auto, true, false).
  const toolSearch = parseToolSearchSetting(env.ENABLE_TOOL_SEARCH);
  const { tools } = await deferMcpTools(input.tools, {
    contextWindow: config.info.contextWindow,
    mode: toolSearch.mode,
  });
  const transcript = new Transcript(dir, sessionId);
  const context = createToolUseContext({
    tools,
    permissionContext: settings.permissionContext,
    isNonInteractiveSession: !input.interactive,
    model: config.model,
    sessionId,
    toolResultsDir: join(dir, sessionId, "tool-results"),
    // Reading or editing a file starts its language server, so that edits report the errors they introduce.
    lsp: lspOptionsFromSettings(settings, { startOnFileUse: true }),
    // Hooks of every event, tool events included, get the real transcript_path.
    transcriptPath: transcript.path,
    ...(settings.worktreesDir ? { worktreesDir: settings.worktreesDir } : {}),
    // A project's custom commands grant their allowed-tools only where its own allow rules apply.
    projectTrusted: settings.trusted,
  });
  const runner =
    input.services.hooks instanceof HookRunner
      ? input.services.hooks
      : settings.hooks.length > 0
        ? new HookRunner({
            hooks: settings.hooks,
            projectDir: settings.projectRoot,
            settingsEnv: settings.env,
            transcriptPath: transcript.path,
          })
        : undefined;
  const hooks = runner
    ? hooksFromRunner(runner, () => ({ ...sessionFromContext(context), transcriptPath: transcript.path }))
    : NO_HOOKS;
  const services: PipelineServices = {
    ...input.services,
    audit: input.services.audit ?? new JsonlAuditSink({ env, retention: settings.auditRetention }),
    ...(runner && !input.services.hooks ? { hooks: runner } : {}),
    ...(input.prompter ? { prompter: input.prompter } : {}),
    classifier:
      input.services.classifier ??
      new ModelClassifier({
        provider,
        model: flags.classifierModel ?? env.KEEL_CLASSIFIER_MODEL ?? config.model,
      }),
  };
  const home = userHomeDir(env);
  const agent = new Agent({
    provider,
    model: config.model,
    modelInfo: config.info,
    tools,
    context,
    services,
    hooks,
    transcript,
    system: (pool) =>
      buildSystemPrompt(pool, {
        cwd: settings.projectRoot,
        home,
        additionalDirectories: workingDirectories(settings.permissionContext).slice(1),
        ...(flags.appendSystemPrompt ? { append: flags.appendSystemPrompt } : {}),
        ...(flags.systemPrompt ? { replace: flags.systemPrompt } : {}),
      }),
    ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
    ...(flags.maxBudgetUsd !== undefined ? { maxBudgetUsd: flags.maxBudgetUsd } : {}),
    ...(flags.thinking ? { thinkingBudget: flags.thinking } : {}),
    ...(resumed ? { resume: resumed } : {}),
  });
  const started = await hooks.sessionStart(
    resumed ? "resume" : "startup",
    context.abortController.signal,
    config.model,
  );
  if (started.additionalContext.length > 0) agent.addContext(started.additionalContext);
  return {
    agent,
    config,
    transcript,
    hooks,
    notices: [...(toolSearch.problem ? [toolSearch.problem] : []), ...started.userMessages],
    trusted: settings.trustSaved,
    ...(resumed ? { resumed } : {}),
  };
}
