// The context of one MCP session. An MCP server cannot see the client's conversation (one server
// process may serve many chats), so Read's "unchanged since last read" stub would point the model at
// content it may never have seen: records handed back here carry no range, which makes every Read a
// fresh one, while Edit and Write still find what was read and when.
import {
  type FileReadRecord,
  FileStateCache,
  type ToolPermissionContext,
  type ToolUseContext,
} from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import type { Tool } from "../tool/Tool.ts";

export class ConversationlessFileStateCache extends FileStateCache {
  override get(path: string): FileReadRecord | undefined {
    const record = super.get(path);
    if (!record) return undefined;
    const { offset: _offset, limit: _limit, ...rest } = record;
    return rest;
  }
}

export function createMcpSessionContext(
  tools: readonly Tool[],
  permissionContext: ToolPermissionContext,
  lsp?: unknown,
): ToolUseContext {
  const context = createToolUseContext({
    tools,
    permissionContext,
    isNonInteractiveSession: true,
    ...(lsp === undefined ? {} : { lsp }),
  });
  return { ...context, readFileState: new ConversationlessFileStateCache() };
}
