// The library entry: `import { buildTool, builtinTools, createToolUseContext, runToolUse } from "keel"`.
// Adapters for other SDKs: "keel/adapters"; MCP both ways: "keel/mcp".
export { JsonlAuditSink } from "./audit/jsonlSink.ts";
export { HookRunner } from "./hooks/runner.ts";
export * from "./permissions/engine.ts";
export * from "./permissions/matchers.ts";
export * from "./permissions/modes.ts";
export * from "./permissions/paths.ts";
export {
  type CallbackPrompterOptions,
  callbackPrompter,
  choosePrompter,
  type ElicitationCallback,
  terminalPrompter,
} from "./permissions/prompters/index.ts";
export * from "./permissions/rules.ts";
export * from "./permissions/types.ts";
export * from "./pipeline/orchestrate.ts";
export * from "./pipeline/results.ts";
export * from "./pipeline/runToolUse.ts";
export * from "./pipeline/StreamingToolExecutor.ts";
export * from "./pipeline/services.ts";
export { type LoadedSettings, loadSettings } from "./settings/load.ts";
export * from "./tool/context.ts";
export * from "./tool/createContext.ts";
export * from "./tool/errors.ts";
export * from "./tool/messages.ts";
export * from "./tool/registry.ts";
export * from "./tool/schema.ts";
export * from "./tool/Tool.ts";
export { builtinTools } from "./tools/builtinTools.ts";
