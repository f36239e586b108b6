// The hook runner: picks the hooks matching an event and query, runs them in parallel (identical
// commands once), and hands the runs to aggregation. Implements the pipeline's ToolHookRunner.
import type { PermissionMode, RuleSuggestion } from "../permissions/types.ts";
import type {
  PermissionRequestHookResult,
  PostToolUseHookResult,
  PreToolUseHookResult,
  ToolHookArgs,
  ToolHookRunner,
} from "../pipeline/services.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { Tool } from "../tool/Tool.ts";
import { aggregatePostToolUse, aggregatePreToolUse } from "./aggregate.ts";
import { runCommandHook } from "./commandRunner.ts";
import { type ConfiguredHook, defaultTimeoutSeconds, type HookEvent, hookDisplayName } from "./config.ts";
import { runPermissionRequestHooks } from "./events.ts";
import { runHttpHook } from "./httpRunner.ts";
import { commonInputFields } from "./inputFields.ts";
import { ifRuleMatches, matcherMatches } from "./matcher.ts";
import { type HookRunResult, interpretHookRun } from "./output.ts";

export interface HookSessionInfo {
  sessionId: string;
  cwd: string;
  permissionMode: PermissionMode;
  transcriptPath?: string;
  /** Set when the hook fires inside a sub-agent (agent_id, agent_type). */
  agentId?: string;
  agentType?: string;
}

export interface HookRunnerOptions {
  hooks: readonly ConfiguredHook[];
  /** The project root, given to hooks as KEEL_PROJECT_DIR and CLAUDE_PROJECT_DIR. */
  projectDir: string;
  /** The environment hooks start with (default: process.env); settings env is laid over it. */
  env?: NodeJS.ProcessEnv;
  /** `env` from settings. */
  settingsEnv?: Record<string, string>;
  /** Where the session transcript is, for hooks that read it. */
  transcriptPath?: string | ((sessionId: string) => string);
}

export interface HookEventRequest {
  event: HookEvent;
  session: HookSessionInfo;
  /** Event-specific stdin fields (tool_name, prompt, source, ...). */
  fields: Record<string, unknown>;
  /** What the group matchers are tested against (tool name, SessionStart source, ...); none = all groups. */
  matchQuery?: string;
  /** For tool events: lets `if` rules be checked. */
  call?: { tool: Tool; input: unknown; context: ToolUseContext };
  signal: AbortSignal;
}

export function sessionFromContext(context: ToolUseContext): HookSessionInfo {
  const state = context.getAppState();
  return {
    sessionId: context.options.sessionId,
    cwd: state.cwd,
    permissionMode: state.toolPermissionContext.mode,
    ...(context.options.transcriptPath ? { transcriptPath: context.options.transcriptPath } : {}),
    ...(context.agentId ? { agentId: context.agentId } : {}),
    ...(context.agentType ? { agentType: context.agentType } : {}),
  };
}

function dedupeKey(hook: ConfiguredHook): string {
  return hook.handler.type === "command"
    ? `command\u0000${hook.handler.command}`
    : `http\u0000${hook.handler.url}`;
}

export class HookRunner implements ToolHookRunner {
  readonly #hooks: readonly ConfiguredHook[];
  readonly #projectDir: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #transcriptPath: HookRunnerOptions["transcriptPath"];

  constructor(options: HookRunnerOptions) {
    this.#hooks = options.hooks;
    this.#projectDir = options.projectDir;
    this.#env = {
      ...(options.env ?? process.env),
      ...options.settingsEnv,
      KEEL_PROJECT_DIR: options.projectDir,
      CLAUDE_PROJECT_DIR: options.projectDir,
    };
    this.#transcriptPath = options.transcriptPath;
  }

  get projectDir(): string {
    return this.#projectDir;
  }

  /** Every configured hook of an event, matching or not (for listings). */
  hooksFor(event: HookEvent): ConfiguredHook[] {
    return this.#hooks.filter((hook) => hook.event === event);
  }

  hasHooks(event: HookEvent): boolean {
    return this.#hooks.some((hook) => hook.event === event);
  }

  /** The hooks that apply to this request, identical commands once (the first configured wins). */
  async selectHooks(
    request: Omit<HookEventRequest, "fields" | "signal" | "session">,
  ): Promise<ConfiguredHook[]> {
    const candidates = this.hooksFor(request.event).filter((hook) =>
      matcherMatches(hook.matcher, request.matchQuery),
    );
    const selected: ConfiguredHook[] = [];
    const seen = new Set<string>();
    for (const hook of candidates) {
      const call = request.call;
      if (call && !(await ifRuleMatches(hook.handler.if, call))) continue;
      const key = dedupeKey(hook);
      if (seen.has(key)) continue;
      seen.add(key);
      selected.push(hook);
    }
    return selected;
  }

  stdinFor(request: HookEventRequest): Record<string, unknown> {
    const transcript =
      request.session.transcriptPath ??
      (typeof this.#transcriptPath === "function"
        ? this.#transcriptPath(request.session.sessionId)
        : this.#transcriptPath);
    return { ...commonInputFields(request.event, request.session, transcript ?? ""), ...request.fields };
  }

  /** Runs every matching hook of the event in parallel; results in configuration order. */
  async run(request: HookEventRequest): Promise<HookRunResult[]> {
    const hooks = await this.selectHooks(request);
    if (hooks.length === 0) return [];
    const stdin = JSON.stringify(this.stdinFor(request));
    return Promise.all(hooks.map((hook) => this.#runOne(hook, request, stdin)));
  }

  async #runOne(hook: ConfiguredHook, request: HookEventRequest, stdin: string): Promise<HookRunResult> {
    const timeoutSeconds = hook.handler.timeout ?? defaultTimeoutSeconds(request.event);
    const raw =
      hook.handler.type === "command"
        ? await runCommandHook({
            command: hook.handler.command,
            stdin,
            cwd: request.session.cwd,
            env: this.#env,
            timeoutSeconds,
            signal: request.signal,
          })
        : await runHttpHook({
            hook: hook.handler,
            body: stdin,
            env: this.#env,
            timeoutSeconds,
            signal: request.signal,
          });
    return interpretHookRun(hookDisplayName(hook.handler), request.event, raw);
  }

  #toolRequest(event: HookEvent, args: ToolHookArgs, fields: Record<string, unknown>): HookEventRequest {
    return {
      event,
      session: sessionFromContext(args.context),
      fields: { tool_name: args.tool.name, tool_input: args.input, tool_use_id: args.toolUseId, ...fields },
      matchQuery: args.tool.name,
      call: { tool: args.tool, input: args.input, context: args.context },
      signal: args.signal,
    };
  }

  async permissionRequest(
    args: ToolHookArgs & { suggestions: readonly RuleSuggestion[] },
  ): Promise<PermissionRequestHookResult> {
    const result = await runPermissionRequestHooks(this, {
      session: sessionFromContext(args.context),
      signal: args.signal,
      toolName: args.tool.name,
      toolInput: args.input,
      suggestions: args.suggestions,
    });
    const decision = result.permissionDecision;
    return {
      ...(decision
        ? {
            decision: {
              behavior: decision.behavior,
              hookName: decision.hookName,
              ...(decision.updatedInput ? { updatedInput: decision.updatedInput } : {}),
              ...(decision.message ? { message: decision.message } : {}),
            },
          }
        : {}),
      userMessages: result.userMessages,
      outcomes: result.outcomes,
    };
  }

  async preToolUse(args: ToolHookArgs): Promise<PreToolUseHookResult> {
    return aggregatePreToolUse(await this.run(this.#toolRequest("PreToolUse", args, {})));
  }

  async postToolUse(args: ToolHookArgs & { response: unknown }): Promise<PostToolUseHookResult> {
    return aggregatePostToolUse(
      await this.run(this.#toolRequest("PostToolUse", args, { tool_response: args.response })),
    );
  }

  async postToolUseFailure(
    args: ToolHookArgs & { error: string; isInterrupt: boolean },
  ): Promise<PostToolUseHookResult> {
    const fields = { error: args.error, is_interrupt: args.isInterrupt };
    return aggregatePostToolUse(await this.run(this.#toolRequest("PostToolUseFailure", args, fields)));
  }
}
