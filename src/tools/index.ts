// The built-in tools, in the order builtinTools() gives them. Adding a tool = one new folder under
// src/tools/ (its <Name>Tool.ts, prompt.md and meta.ts: the facts Keel reads without loading it) + one
// registration here. Only the metas load with this file: a process deciding one call (`keel check`,
// `keel hook`, `keel tool`) loads that tool's module alone (catalog.ts), and lists such as the tools
// Keel judges for other agents or the path-rule families are derived from the metas, never written out.
import type { ToolRegistration } from "../tool/toolMeta.ts";
import { agentToolMeta } from "./agent/meta.ts";
import { askUserQuestionToolMeta } from "./ask-user-question/meta.ts";
import { bashToolMeta } from "./bash/meta.ts";
import { cronCreateToolMeta } from "./cron-create/meta.ts";
import { cronDeleteToolMeta } from "./cron-delete/meta.ts";
import { cronListToolMeta } from "./cron-list/meta.ts";
import { editToolMeta } from "./edit/meta.ts";
import { enterPlanModeToolMeta } from "./enter-plan-mode/meta.ts";
import { enterWorktreeToolMeta } from "./enter-worktree/meta.ts";
import { exitPlanModeToolMeta } from "./exit-plan-mode/meta.ts";
import { exitWorktreeToolMeta } from "./exit-worktree/meta.ts";
import { globToolMeta } from "./glob/meta.ts";
import { grepToolMeta } from "./grep/meta.ts";
import { listAgentsToolMeta } from "./list-agents/meta.ts";
import { lsToolMeta } from "./ls/meta.ts";
import { lspToolMeta } from "./lsp/meta.ts";
import { monitorToolMeta } from "./monitor/meta.ts";
import { multiEditToolMeta } from "./multi-edit/meta.ts";
import { notebookEditToolMeta } from "./notebook-edit/meta.ts";
import { readToolMeta } from "./read/meta.ts";
import { scheduleWakeupToolMeta } from "./schedule-wakeup/meta.ts";
import { sendMessageToolMeta } from "./send-message/meta.ts";
import { skillToolMeta } from "./skill/meta.ts";
import { taskCreateToolMeta } from "./task-create/meta.ts";
import { taskGetToolMeta } from "./task-get/meta.ts";
import { taskListToolMeta } from "./task-list/meta.ts";
import { taskOutputToolMeta } from "./task-output/meta.ts";
import { taskStopToolMeta } from "./task-stop/meta.ts";
import { taskUpdateToolMeta } from "./task-update/meta.ts";
import { todoWriteToolMeta } from "./todo-write/meta.ts";
import { toolSearchToolMeta } from "./tool-search/meta.ts";
import { webFetchToolMeta } from "./web-fetch/meta.ts";
import { webSearchToolMeta } from "./web-search/meta.ts";
import { writeToolMeta } from "./write/meta.ts";

export const BUILTIN_TOOLS: readonly ToolRegistration[] = [
  { meta: readToolMeta, load: async () => (await import("./read/ReadTool.ts")).ReadTool },
  { meta: writeToolMeta, load: async () => (await import("./write/WriteTool.ts")).WriteTool },
  { meta: editToolMeta, load: async () => (await import("./edit/EditTool.ts")).EditTool },
  {
    meta: multiEditToolMeta,
    load: async () => (await import("./multi-edit/MultiEditTool.ts")).MultiEditTool,
  },
  {
    meta: notebookEditToolMeta,
    load: async () => (await import("./notebook-edit/NotebookEditTool.ts")).NotebookEditTool,
  },
  { meta: globToolMeta, load: async () => (await import("./glob/GlobTool.ts")).GlobTool },
  { meta: grepToolMeta, load: async () => (await import("./grep/GrepTool.ts")).GrepTool },
  { meta: lsToolMeta, load: async () => (await import("./ls/LSTool.ts")).LSTool },
  { meta: lspToolMeta, load: async () => (await import("./lsp/LspTool.ts")).LspTool },
  { meta: bashToolMeta, load: async () => (await import("./bash/BashTool.ts")).BashTool },
  {
    meta: taskOutputToolMeta,
    load: async () => (await import("./task-output/TaskOutputTool.ts")).TaskOutputTool,
  },
  { meta: taskStopToolMeta, load: async () => (await import("./task-stop/TaskStopTool.ts")).TaskStopTool },
  { meta: monitorToolMeta, load: async () => (await import("./monitor/MonitorTool.ts")).MonitorTool },
  { meta: webFetchToolMeta, load: async () => (await import("./web-fetch/WebFetchTool.ts")).WebFetchTool },
  {
    meta: webSearchToolMeta,
    load: async () => (await import("./web-search/WebSearchTool.ts")).WebSearchTool,
  },
  {
    meta: todoWriteToolMeta,
    load: async () => (await import("./todo-write/TodoWriteTool.ts")).TodoWriteTool,
  },
  {
    meta: taskCreateToolMeta,
    load: async () => (await import("./task-create/TaskCreateTool.ts")).TaskCreateTool,
  },
  { meta: taskGetToolMeta, load: async () => (await import("./task-get/TaskGetTool.ts")).TaskGetTool },
  {
    meta: taskUpdateToolMeta,
    load: async () => (await import("./task-update/TaskUpdateTool.ts")).TaskUpdateTool,
  },
  { meta: taskListToolMeta, load: async () => (await import("./task-list/TaskListTool.ts")).TaskListTool },
  {
    meta: askUserQuestionToolMeta,
    load: async () => (await import("./ask-user-question/AskUserQuestionTool.ts")).AskUserQuestionTool,
  },
  {
    meta: enterPlanModeToolMeta,
    load: async () => (await import("./enter-plan-mode/EnterPlanModeTool.ts")).EnterPlanModeTool,
  },
  {
    meta: exitPlanModeToolMeta,
    load: async () => (await import("./exit-plan-mode/ExitPlanModeTool.ts")).ExitPlanModeTool,
  },
  {
    meta: enterWorktreeToolMeta,
    load: async () => (await import("./enter-worktree/EnterWorktreeTool.ts")).EnterWorktreeTool,
  },
  {
    meta: exitWorktreeToolMeta,
    load: async () => (await import("./exit-worktree/ExitWorktreeTool.ts")).ExitWorktreeTool,
  },
  { meta: skillToolMeta, load: async () => (await import("./skill/SkillTool.ts")).SkillTool },
  {
    meta: toolSearchToolMeta,
    load: async () => (await import("./tool-search/ToolSearchTool.ts")).ToolSearchTool,
  },
  { meta: agentToolMeta, load: async () => (await import("./agent/AgentTool.ts")).AgentTool },
  {
    meta: sendMessageToolMeta,
    load: async () => (await import("./send-message/SendMessageTool.ts")).SendMessageTool,
  },
  {
    meta: listAgentsToolMeta,
    load: async () => (await import("./list-agents/ListAgentsTool.ts")).ListAgentsTool,
  },
  {
    meta: cronCreateToolMeta,
    load: async () => (await import("./cron-create/CronCreateTool.ts")).CronCreateTool,
  },
  { meta: cronListToolMeta, load: async () => (await import("./cron-list/CronListTool.ts")).CronListTool },
  {
    meta: cronDeleteToolMeta,
    load: async () => (await import("./cron-delete/CronDeleteTool.ts")).CronDeleteTool,
  },
  {
    meta: scheduleWakeupToolMeta,
    load: async () => (await import("./schedule-wakeup/ScheduleWakeupTool.ts")).ScheduleWakeupTool,
  },
];
