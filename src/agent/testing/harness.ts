// An Agent wired to a scripted provider server: for the loop's tests, and for anyone building on the
// loop (sub-agents, web tools) who needs a model that says exactly what the test wants.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { PipelineServices } from "../../pipeline/services.ts";
import { createToolUseContext, type SessionOptions } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { Agent, type AgentOptions } from "../Agent.ts";
import type { AgentEvent, RunOutcome } from "../events.ts";
import { modelInfo } from "../models.ts";
import type { ModelProvider } from "../provider.ts";
import { AnthropicProvider } from "../providers/anthropic.ts";
import { OpenAIProvider } from "../providers/openai.ts";
import { startAnthropicServer } from "./anthropicServer.ts";
import { startOpenAIServer } from "./openaiServer.ts";
import type { Script } from "./script.ts";
import type { ClassifierScript, ScriptedServer } from "./server.ts";

export type Protocol = "anthropic" | "openai";
export const PROTOCOLS: readonly Protocol[] = ["anthropic", "openai"];
export const TEST_KEY = "sk-test-key";

export async function startServer(
  protocol: Protocol,
  script: Script,
  apiKey = TEST_KEY,
  classifier?: ClassifierScript,
): Promise<ScriptedServer> {
  const options = { script, apiKey, ...(classifier ? { classifier } : {}) };
  return protocol === "anthropic" ? startAnthropicServer(options) : startOpenAIServer(options);
}

export function providerFor(protocol: Protocol, server: ScriptedServer, apiKey = TEST_KEY): ModelProvider {
  return protocol === "anthropic"
    ? new AnthropicProvider({ apiKey, baseURL: server.url })
    : new OpenAIProvider({ apiKey, baseURL: `${server.url}/v1` });
}

/** Fast retries for tests: real backoff code, millisecond waits. */
/** `keel run` flags that point the CLI at a scripted Anthropic-protocol server. */
export function cliProviderArgs(server: ScriptedServer): string[] {
  return ["--provider", "anthropic", "--base-url", server.url, "--model", "claude-test"];
}

export const FAST_RETRY = { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20 };

export interface ScriptedAgentOptions {
  protocol: Protocol;
  script: Script;
  tools?: Tool[];
  session?: Omit<SessionOptions, "tools">;
  services?: PipelineServices;
  agent?: Partial<AgentOptions>;
  apiKey?: string;
}

export interface ScriptedAgent {
  agent: Agent;
  server: ScriptedServer;
  /** Runs a prompt to its end, collecting every event. */
  run(prompt: string): Promise<{ events: AgentEvent[]; outcome: RunOutcome }>;
  /** Closes the server and removes the folder the agent's saved results went to. */
  close(): Promise<void>;
}

export async function collectRun<Result = RunOutcome>(
  generator: AsyncGenerator<AgentEvent, Result, undefined>,
  onEvent?: (event: AgentEvent) => void,
): Promise<{ events: AgentEvent[]; outcome: Result }> {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, outcome: next.value };
    events.push(next.value);
    onEvent?.(next.value);
  }
}

export async function scriptedAgent(options: ScriptedAgentOptions): Promise<ScriptedAgent> {
  const server = await startServer(options.protocol, options.script, TEST_KEY);
  const tools = options.tools ?? [];
  const resultsRoot = mkdtempSync(join(tmpdir(), "keel-agent-"));
  const context = createToolUseContext({
    tools,
    cwd: process.cwd(),
    toolResultsDir: join(resultsRoot, "tool-results"),
    ...options.session,
  });
  const agent = new Agent({
    provider: providerFor(options.protocol, server, options.apiKey ?? TEST_KEY),
    model: "test-model",
    modelInfo: modelInfo("test-model"),
    tools,
    context,
    services: options.services ?? {},
    system: [{ text: "You are a scripted test agent.", cache: true }],
    retry: FAST_RETRY,
    ...options.agent,
  });
  return {
    agent,
    server,
    run: (prompt) => collectRun(agent.submit(prompt)),
    close: async () => {
      await server.close();
      rmSync(resultsRoot, { recursive: true, force: true });
    },
  };
}

/** A scripted agent for the running test: closed (server and results folder) when the test has finished. */
export async function scriptedAgentForTest(options: ScriptedAgentOptions): Promise<ScriptedAgent> {
  const made = await scriptedAgent(options);
  onTestFinished(() => made.close());
  return made;
}
