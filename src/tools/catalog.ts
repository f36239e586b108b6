// The built-in tools as light metadata, each module loaded only when asked for. A process that decides or
// runs one call (`keel check`, `keel tool`, `keel hook`) loads that tool and nothing else: every tool's
// module and zod schema cost start-up time a person waits on at every call. The names here are checked
// against the tools themselves (catalog.test.ts), so they cannot drift from index.ts.
import type { Tool } from "../tool/Tool.ts";

export interface ToolCatalogEntry {
  name: string;
  aliases?: readonly string[];
  /** The rule names that cover the tool, when more than its own (Tool.permissionRuleNames). */
  ruleNames?: readonly string[];
  /** Its call looks up other tools of the session (sub-agents, tool search, commands run through the pipeline). */
  usesToolPool?: true;
  load(): Promise<Tool>;
}

const READ_FAMILY = ["Read"];

/** In builtinTools() order. */
export const TOOL_CATALOG: readonly ToolCatalogEntry[] = [
  { name: "Read", ruleNames: READ_FAMILY, load: async () => (await import("./read/ReadTool.ts")).ReadTool },
  {
    name: "Write",
    ruleNames: ["Edit", "Write"],
    load: async () => (await import("./write/WriteTool.ts")).WriteTool,
  },
  { name: "Edit", ruleNames: ["Edit"], load: async () => (await import("./edit/EditTool.ts")).EditTool },
  {
    name: "MultiEdit",
    ruleNames: ["Edit", "MultiEdit"],
    load: async () => (await import("./multi-edit/MultiEditTool.ts")).MultiEditTool,
  },
  {
    name: "NotebookEdit",
    ruleNames: ["Edit", "NotebookEdit"],
    load: async () => (await import("./notebook-edit/NotebookEditTool.ts")).NotebookEditTool,
  },
  { name: "Glob", ruleNames: READ_FAMILY, load: async () => (await import("./glob/GlobTool.ts")).GlobTool },
  { name: "Grep", ruleNames: READ_FAMILY, load: async () => (await import("./grep/GrepTool.ts")).GrepTool },
  { name: "LS", ruleNames: READ_FAMILY, load: async () => (await import("./ls/LSTool.ts")).LSTool },
  { name: "LSP", ruleNames: READ_FAMILY, load: async () => (await import("./lsp/LspTool.ts")).LspTool },
  { name: "Bash", load: async () => (await import("./bash/BashTool.ts")).BashTool },
  { name: "TaskOutput", load: async () => (await import("./task-output/TaskOutputTool.ts")).TaskOutputTool },
  { name: "TaskStop", load: async () => (await import("./task-stop/TaskStopTool.ts")).TaskStopTool },
  { name: "Monitor", load: async () => (await import("./monitor/MonitorTool.ts")).MonitorTool },
  { name: "WebFetch", load: async () => (await import("./web-fetch/WebFetchTool.ts")).WebFetchTool },
  { name: "WebSearch", load: async () => (await import("./web-search/WebSearchTool.ts")).WebSearchTool },
  { name: "TodoWrite", load: async () => (await import("./todo-write/TodoWriteTool.ts")).TodoWriteTool },
  { name: "TaskCreate", load: async () => (await import("./task-create/TaskCreateTool.ts")).TaskCreateTool },
  { name: "TaskGet", load: async () => (await import("./task-get/TaskGetTool.ts")).TaskGetTool },
  { name: "TaskUpdate", load: async () => (await import("./task-update/TaskUpdateTool.ts")).TaskUpdateTool },
  { name: "TaskList", load: async () => (await import("./task-list/TaskListTool.ts")).TaskListTool },
  {
    name: "AskUserQuestion",
    load: async () => (await import("./ask-user-question/AskUserQuestionTool.ts")).AskUserQuestionTool,
  },
  {
    name: "EnterPlanMode",
    load: async () => (await import("./enter-plan-mode/EnterPlanModeTool.ts")).EnterPlanModeTool,
  },
  {
    name: "ExitPlanMode",
    load: async () => (await import("./exit-plan-mode/ExitPlanModeTool.ts")).ExitPlanModeTool,
  },
  {
    name: "EnterWorktree",
    load: async () => (await import("./enter-worktree/EnterWorktreeTool.ts")).EnterWorktreeTool,
  },
  {
    name: "ExitWorktree",
    load: async () => (await import("./exit-worktree/ExitWorktreeTool.ts")).ExitWorktreeTool,
  },
  { name: "Skill", usesToolPool: true, load: async () => (await import("./skill/SkillTool.ts")).SkillTool },
  {
    name: "ToolSearch",
    usesToolPool: true,
    load: async () => (await import("./tool-search/ToolSearchTool.ts")).ToolSearchTool,
  },
  {
    name: "Agent",
    aliases: ["Task"],
    ruleNames: ["Agent", "Task"],
    usesToolPool: true,
    load: async () => (await import("./agent/AgentTool.ts")).AgentTool,
  },
  {
    name: "SendMessage",
    load: async () => (await import("./send-message/SendMessageTool.ts")).SendMessageTool,
  },
  { name: "ListAgents", load: async () => (await import("./list-agents/ListAgentsTool.ts")).ListAgentsTool },
  { name: "CronCreate", load: async () => (await import("./cron-create/CronCreateTool.ts")).CronCreateTool },
  { name: "CronList", load: async () => (await import("./cron-list/CronListTool.ts")).CronListTool },
  { name: "CronDelete", load: async () => (await import("./cron-delete/CronDeleteTool.ts")).CronDeleteTool },
  {
    name: "ScheduleWakeup",
    load: async () => (await import("./schedule-wakeup/ScheduleWakeupTool.ts")).ScheduleWakeupTool,
  },
];

/** The catalog entry a tool name or alias means (exact, as the pipeline looks tools up). */
export function catalogEntry(name: string): ToolCatalogEntry | undefined {
  return TOOL_CATALOG.find((entry) => entry.name === name || entry.aliases?.includes(name));
}

/** Every name a rule may use for a built-in tool: names, aliases and rule families. */
export function builtinRuleNames(): Set<string> {
  const names = new Set<string>();
  for (const entry of TOOL_CATALOG) {
    names.add(entry.name);
    for (const alias of entry.aliases ?? []) names.add(alias);
    for (const family of entry.ruleNames ?? []) names.add(family);
  }
  return names;
}

/**
 * The built-in tools a session of one call needs: the named tool alone, or every tool when the name is
 * not a built-in's (an MCP tool, a typo to list the alternatives for) or the tool looks up the others.
 */
export async function loadToolsFor(name: string): Promise<Tool[]> {
  const entry = catalogEntry(name);
  if (!entry || entry.usesToolPool) return loadAllBuiltinTools();
  return [await entry.load()];
}

export async function loadAllBuiltinTools(): Promise<Tool[]> {
  return (await import("./index.ts")).builtinTools();
}
