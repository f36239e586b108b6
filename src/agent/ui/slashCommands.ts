// Slash commands of the terminal UI: /help /status /model /resume /init /memory /mcp /clear /compact
// /permissions /cost /exit. Each is a small function over the session; the UI only parses the line and
// shows what they print. Other names are the project's and user's custom commands
// (src/agent/customCommands.ts).
import { readFileSync } from "node:fs";
import { isPermissionMode, MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import { PERMISSION_MODES, RULE_SOURCES } from "../../permissions/types.ts";
import { updatePermissionContext, workingDirectories } from "../../tool/context.ts";
import type { Agent } from "../Agent.ts";
import { modelProvider, resolveModelAlias } from "../config.ts";
import { formatCost, formatTokens, formatUsage } from "../format.ts";
import { modelInfo } from "../models.ts";
import { sessionSummaries, timeAgo } from "../sessionList.ts";
import { findSession, transcriptDir } from "../transcript.ts";
import { memoryCommand } from "./memoryCommand.ts";
import { mcpText, type SessionFacts, statusText } from "./statusCommands.ts";

/** One choice of a picker: a line, and a dimmer line under it. */
export interface PickItem {
  label: string;
  detail?: string;
}

export interface SlashHost {
  agent: Agent;
  /** How the session was set up, for /status and /model. */
  facts: SessionFacts;
  /** The environment the session was started in (where transcripts are kept). */
  env: NodeJS.ProcessEnv;
  print(text: string): void;
  exit(): void;
  /** Sends a prompt to the model as if typed; `shown` is what the history shows instead. */
  submit(prompt: string, shown: string): Promise<void>;
  /** Lets the person pick one item (arrows and Enter, or its number); undefined when they leave it (Esc). */
  pick(title: string, items: readonly PickItem[]): Promise<number | undefined>;
  /** Leaves this session for a saved one of the project. */
  resume(sessionId: string): void;
  /** Runs /compact through the UI so its events show. */
  compact(instructions: string | undefined): Promise<void>;
  /** /clear: forget what is on screen too. */
  clearScreen(): void;
  /** The custom slash commands of the session (for /help), usage and description each. */
  customCommands?(): Promise<Array<{ usage: string; description: string }>>;
}

export interface SlashCommand {
  name: string;
  usage: string;
  description: string;
  run(host: SlashHost, args: string): void | Promise<void>;
}

function permissions(host: SlashHost, args: string): void {
  const context = host.agent.context;
  const [word, value] = args.trim().split(/\s+/);
  if (word === "mode") {
    if (!value || !isPermissionMode(value)) {
      host.print(`Usage: /permissions mode <${PERMISSION_MODES.join("|")}>`);
      return;
    }
    const current = context.getAppState().toolPermissionContext;
    if (value === "bypassPermissions" && !current.isBypassPermissionsModeAvailable) {
      host.print("bypassPermissions is disabled by settings.");
      return;
    }
    context.setAppState((state) => ({
      ...state,
      toolPermissionContext: updatePermissionContext(state.toolPermissionContext, { mode: value }),
    }));
    host.print(`Permission mode: ${value} (${MODE_DESCRIPTIONS[value]})`);
    return;
  }
  const policy = context.getAppState().toolPermissionContext;
  const lines = [`Permission mode: ${policy.mode} (${MODE_DESCRIPTIONS[policy.mode]})`];
  lines.push(`Working directories: ${workingDirectories(policy).join(", ")}`);
  for (const [label, rules] of [
    ["deny", policy.alwaysDenyRules],
    ["ask", policy.alwaysAskRules],
    ["allow", policy.alwaysAllowRules],
  ] as const) {
    const entries = RULE_SOURCES.flatMap((source) =>
      (rules[source] ?? []).map((rule) => `  ${rule}  (${source})`),
    );
    lines.push(`${label} rules:${entries.length ? `\n${entries.join("\n")}` : " none"}`);
  }
  lines.push("Change the mode with /permissions mode <mode>.");
  host.print(lines.join("\n"));
}

function cost(host: SlashHost): void {
  const agent = host.agent;
  host.print(
    [
      `Session cost: ${formatCost(agent.modelInfo.pricing ? agent.costUsd : undefined)}`,
      `Tokens: ${formatUsage(agent.usage)}`,
      `Model: ${agent.model} (context window ${formatTokens(agent.modelInfo.contextWindow)})`,
    ].join("\n"),
  );
}

const PROVIDER_NAMES = { anthropic: "Anthropic", openai: "OpenAI" } as const;

/** /model <name>: only a model the session's provider serves; a model of the other one is refused, saying how. */
function model(host: SlashHost, args: string): void {
  const typed = args.trim();
  const { provider, baseURL } = host.facts.config;
  if (!typed) {
    host.print(
      `Model: ${host.agent.model} (${PROVIDER_NAMES[provider]}). Switch with /model <name>, a model of the same provider${provider === "anthropic" ? " (sonnet, opus, haiku, or a full claude-* name)" : ""}.`,
    );
    return;
  }
  const name = resolveModelAlias(typed);
  const family = modelProvider(name);
  // The official Anthropic API serves Claude models only; a proxy or local server may serve any name.
  const official = provider === "anthropic" && baseURL === undefined;
  if ((family && family !== provider) || (official && family !== "anthropic")) {
    const other = family ? PROVIDER_NAMES[family] : "another provider's";
    host.print(
      `${name} is ${family ? `an ${other}` : "not an Anthropic"} model, and this session talks to the ${PROVIDER_NAMES[provider]} API, so it stays on ${host.agent.model}. ` +
        `/model takes a model of the same provider; for ${name}, start keel with --model ${name}${family ? ` --provider ${family}` : " and the --provider and --base-url that serve it"}.`,
    );
    return;
  }
  host.agent.setModel(name, modelInfo(name));
  host.print(`Model: ${name}${name !== typed ? ` (${typed})` : ""}`);
}

/** /resume [id]: pick a saved session of this project (or name it), and continue it here. */
async function resume(host: SlashHost, args: string): Promise<void> {
  const projectRoot = host.agent.context.getAppState().toolPermissionContext.projectRoot;
  const dir = transcriptDir(projectRoot, host.env);
  const wanted = args.trim();
  if (wanted) {
    const found = findSession(dir, wanted);
    if ("error" in found) host.print(found.error);
    else if (found.sessionId === host.agent.sessionId) host.print("That is the session you are in.");
    else host.resume(found.sessionId);
    return;
  }
  const sessions = sessionSummaries(dir, host.agent.sessionId);
  if (sessions.length === 0) {
    host.print("No earlier sessions with a prompt in this project.");
    return;
  }
  const now = Date.now();
  const choice = await host.pick(
    "Resume a session (Up/Down and Enter, or its number; Esc to stay here):",
    sessions.map((session) => ({
      label: session.firstPrompt,
      detail: `${timeAgo(session.modifiedMs, now)} · ${session.prompts} prompt${session.prompts === 1 ? "" : "s"} · ${session.sessionId}`,
    })),
  );
  if (choice === undefined) return;
  host.resume(sessions[choice]!.sessionId);
}

let initPrompt: string | undefined;

/** /init: the model looks through the repository and writes CLAUDE.md (its Write asks like any other). */
function init(host: SlashHost): Promise<void> {
  initPrompt ??= readFileSync(new URL("./init.md", import.meta.url), "utf8").trim();
  return host.submit(initPrompt, "/init");
}

/** The keys, as /help lists them below the commands. */
export const KEY_HELP: readonly string[] = [
  "Enter sends the prompt. \\ then Enter, Alt+Enter, Ctrl+J (or Shift+Enter, where the terminal reports it) start a new line; a paste stays one prompt.",
  "Left/Right, Home/End (Ctrl+A/E), Alt+B/F or Ctrl+Left/Right by word; Ctrl+W, Ctrl+U, Ctrl+K delete.",
  "Up/Down (Ctrl+P/N) recall earlier prompts of this project (kept in ~/.keel/history.jsonl).",
  "!command runs a shell command through the permission checks (it asks when the model's would); the model sees it and its output with the next prompt.",
  "@path in a prompt attaches that file (or lists that folder); while typing, Tab completes the first path shown.",
  "Shift+Tab cycles the permission mode: default, acceptEdits, plan.",
  "Ctrl-C or Esc stops the agent (tools that can stop, stop); Ctrl-C clears the prompt; at an empty prompt, Ctrl-C twice or Ctrl-D exits.",
  "In an approval dialog: Up/Down and Enter, or the choice's number (y, a, n also work); Esc answers no.",
];

async function help(host: SlashHost): Promise<void> {
  const custom = (await host.customCommands?.().catch(() => [])) ?? [];
  host.print(
    [
      ...SLASH_COMMANDS.map((command) => `${command.usage.padEnd(28)} ${command.description}`),
      ...(custom.length > 0
        ? [
            "",
            "Custom commands:",
            ...custom.map((command) => `${command.usage.padEnd(28)} ${command.description}`),
          ]
        : []),
      "",
      ...KEY_HELP,
    ].join("\n"),
  );
}

function memory(host: SlashHost, args: string): Promise<void> {
  const state = host.agent.context.getAppState();
  return memoryCommand(
    { projectRoot: state.toolPermissionContext.projectRoot, cwd: state.cwd, print: host.print },
    args,
  );
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "help", usage: "/help", description: "show the commands and keys", run: help },
  {
    name: "status",
    usage: "/status",
    description: "version, model and provider, mode, folders, settings files, MCP servers",
    run: (host) => host.print(statusText(host.agent, host.facts)),
  },
  {
    name: "resume",
    usage: "/resume [id]",
    description: "pick an earlier session of this project and continue it",
    run: resume,
  },
  {
    name: "init",
    usage: "/init",
    description: "have the model study the repository and write CLAUDE.md",
    run: init,
  },
  {
    name: "memory",
    usage: "/memory [show|edit|add <n>]",
    description: "list, show and edit the memory files",
    run: memory,
  },
  {
    name: "clear",
    usage: "/clear",
    description: "start a fresh conversation",
    run: async (host) => {
      const messages = await host.agent.clearConversation();
      host.clearScreen();
      host.print("Conversation cleared.");
      for (const message of messages) host.print(message);
    },
  },
  {
    name: "compact",
    usage: "/compact [instructions]",
    description: "summarize older turns to free context",
    run: (host, args) => host.compact(args.trim() || undefined),
  },
  {
    name: "permissions",
    usage: "/permissions [mode <mode>]",
    description: "show the rules and mode, or change the mode",
    run: permissions,
  },
  {
    name: "mcp",
    usage: "/mcp",
    description: "MCP servers: state and tools",
    run: (host) => host.print(mcpText(host.agent)),
  },
  { name: "cost", usage: "/cost", description: "tokens and cost of this session", run: cost },
  {
    name: "model",
    usage: "/model [name]",
    description: "show or switch the model (of the same provider)",
    run: model,
  },
  { name: "exit", usage: "/exit", description: "leave Keel", run: (host) => host.exit() },
];

export function parseSlash(
  line: string,
): { command: SlashCommand | undefined; name: string; args: string } | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const command = SLASH_COMMANDS.find(
    (candidate) => candidate.name === name || (name === "quit" && candidate.name === "exit"),
  );
  return { command, name, args: match[2] ?? "" };
}
