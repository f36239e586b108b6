// `keel mcp --http` in the test's own process (the same serveHttp as the CLI, on a real 127.0.0.1 port),
// for tests that look at the server's sessions: how many are open, what it logged.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPermissionContext } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { AskUserQuestionTool } from "../../tools/ask-user-question/AskUserQuestionTool.ts";
import { ReadTool } from "../../tools/read/ReadTool.ts";
import { type RunningHttpServer, serveHttp } from "../serveHttp.ts";
import { createMcpSessionContext } from "../sessionContext.ts";
import { testTools } from "./testTools.ts";

export interface InProcessServer extends RunningHttpServer {
  project: string;
  logs: string[];
}

export async function startInProcessHttp(
  options: { token?: string; sessionIdleMs?: number; maxSessions?: number; allow?: string[] } = {},
): Promise<InProcessServer> {
  const project = join(tempFolderForTest("keel-mcp-http-"), "project");
  mkdirSync(project);
  writeFileSync(join(project, "hello.txt"), "hello from the project\n");
  const tools = [...testTools(), ReadTool, AskUserQuestionTool] as unknown as Tool[];
  const permission = buildPermissionContext({ cwd: project, allow: options.allow ?? ["Sleep", "Echo"] });
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const running = await serveHttp({
    host: "127.0.0.1",
    port: 0,
    token: options.token,
    createSession: () => ({ tools, context: createMcpSessionContext(tools, permission), services: {}, log }),
    log,
    ...(options.sessionIdleMs === undefined ? {} : { sessionIdleMs: options.sessionIdleMs }),
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
  });
  return { ...running, project, logs };
}

/** POSTs JSON (or raw text) to the MCP endpoint; the JSON-RPC message of the reply (JSON or first SSE event). */
export async function postRaw(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> | undefined; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(data) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

export const initializeRequest = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});
