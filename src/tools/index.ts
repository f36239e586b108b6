// The built-in tools. Adding a tool = one new folder + one line here.
import type { Tool } from "../tool/Tool.ts";
import { AgentTool } from "./agent/AgentTool.ts";
import { AskUserQuestionTool } from "./ask-user-question/AskUserQuestionTool.ts";
import { BashTool } from "./bash/BashTool.ts";
import { CronCreateTool } from "./cron-create/CronCreateTool.ts";
import { CronDeleteTool } from "./cron-delete/CronDeleteTool.ts";
import { CronListTool } from "./cron-list/CronListTool.ts";
import { EditTool } from "./edit/EditTool.ts";
import { EnterPlanModeTool } from "./enter-plan-mode/EnterPlanModeTool.ts";
import { EnterWorktreeTool } from "./enter-worktree/EnterWorktreeTool.ts";
import { ExitPlanModeTool } from "./exit-plan-mode/ExitPlanModeTool.ts";
import { ExitWorktreeTool } from "./exit-worktree/ExitWorktreeTool.ts";
import { GlobTool } from "./glob/GlobTool.ts";
import { GrepTool } from "./grep/GrepTool.ts";
import { ListAgentsTool } from "./list-agents/ListAgentsTool.ts";
import { LSTool } from "./ls/LSTool.ts";
import { LspTool } from "./lsp/LspTool.ts";
import { MonitorTool } from "./monitor/MonitorTool.ts";
import { MultiEditTool } from "./multi-edit/MultiEditTool.ts";
import { NotebookEditTool } from "./notebook-edit/NotebookEditTool.ts";
import { ReadTool } from "./read/ReadTool.ts";
import { ScheduleWakeupTool } from "./schedule-wakeup/ScheduleWakeupTool.ts";
import { SendMessageTool } from "./send-message/SendMessageTool.ts";
import { SkillTool } from "./skill/SkillTool.ts";
import { TaskCreateTool } from "./task-create/TaskCreateTool.ts";
import { TaskGetTool } from "./task-get/TaskGetTool.ts";
import { TaskListTool } from "./task-list/TaskListTool.ts";
import { TaskOutputTool } from "./task-output/TaskOutputTool.ts";
import { TaskStopTool } from "./task-stop/TaskStopTool.ts";
import { TaskUpdateTool } from "./task-update/TaskUpdateTool.ts";
import { TodoWriteTool } from "./todo-write/TodoWriteTool.ts";
import { ToolSearchTool } from "./tool-search/ToolSearchTool.ts";
import { WebFetchTool } from "./web-fetch/WebFetchTool.ts";
import { WebSearchTool } from "./web-search/WebSearchTool.ts";
import { WriteTool } from "./write/WriteTool.ts";

export function builtinTools(): Tool[] {
  return [
    ReadTool,
    WriteTool,
    EditTool,
    MultiEditTool,
    NotebookEditTool,
    GlobTool,
    GrepTool,
    LSTool,
    LspTool,
    BashTool,
    TaskOutputTool,
    TaskStopTool,
    MonitorTool,
    WebFetchTool,
    WebSearchTool,
    TodoWriteTool,
    TaskCreateTool,
    TaskGetTool,
    TaskUpdateTool,
    TaskListTool,
    AskUserQuestionTool,
    EnterPlanModeTool,
    ExitPlanModeTool,
    EnterWorktreeTool,
    ExitWorktreeTool,
    SkillTool,
    ToolSearchTool,
    AgentTool,
    SendMessageTool,
    ListAgentsTool,
    CronCreateTool,
    CronListTool,
    CronDeleteTool,
    ScheduleWakeupTool,
  ] as Tool[];
}
