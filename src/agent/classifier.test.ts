// `auto` mode: the model-based classifier approves ordinary asks, never deny or ask rules; every
// verdict lands in the audit log with the classifier as the decider.
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { AuditRecord } from "../pipeline/services.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool } from "../tool/Tool.ts";
import { Agent } from "./Agent.ts";
import { ModelClassifier, parseVerdict } from "./classifier.ts";
import { modelInfo } from "./models.ts";
import { collectRun, FAST_RETRY, providerFor, startServer } from "./testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "./testing/script.ts";
import type { ScriptedServer } from "./testing/server.ts";

const touched: string[] = [];
const touch = buildTool<{ name: string }, string>({
  name: "Touch",
  inputSchema: z.object({ name: z.string() }),
  maxResultSizeChars: 1000,
  description: () => "touch",
  prompt: () => "Marks a name as touched.",
  call: async (input) => {
    touched.push(input.name);
    return { data: `touched ${input.name}` };
  },
});

const servers: ScriptedServer[] = [];
afterEach(async () => {
  touched.length = 0;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function isClassifierRequest(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.system).includes("You review one tool call");
}

/** One prompt whose model calls Touch once; the classifier's requests get `verdict`. */
async function runAuto(options: {
  verdict: string;
  mode?: "auto" | "default";
  deny?: string[];
  ask?: string[];
}) {
  const audit: AuditRecord[] = [];
  const turns: ScriptTurn[] = [
    { blocks: [toolUse("Touch", { name: "readme" })] },
    { blocks: [text("done")] },
  ];
  let played = 0;
  const server = await startServer(
    "anthropic",
    () => turns[played++]!,
    undefined,
    () => ({
      blocks: [text(options.verdict)],
    }),
  );
  servers.push(server);
  const provider = providerFor("anthropic", server);
  const agent = new Agent({
    provider,
    model: "m",
    modelInfo: modelInfo("m"),
    tools: [touch],
    context: createToolUseContext({
      tools: [touch],
      cwd: process.cwd(),
      mode: options.mode ?? "auto",
      deny: options.deny ?? [],
      ask: options.ask ?? [],
    }),
    services: {
      audit: { record: (entry) => audit.push(entry) },
      classifier: new ModelClassifier({ provider, model: "small" }),
    },
    system: [{ text: "s" }],
    retry: FAST_RETRY,
  });
  await collectRun(agent.submit("touch the readme"));
  return { server, audit, entry: audit.find((record) => record.tool === "Touch") };
}

describe("auto mode classifier", () => {
  it("turns an ordinary ask into allow, recorded with the classifier as decider", async () => {
    const { server, entry } = await runAuto({ verdict: "ALLOW: part of the task" });
    expect(touched).toEqual(["readme"]);
    const classifierRequest = server.classifierRequests[0]!;
    expect(JSON.stringify(classifierRequest.body.messages)).toContain("touch the readme");
    expect(classifierRequest.body.tools).toBeUndefined();
    expect(entry?.behavior).toBe("allow");
    expect(entry?.decidedBy).toBe("classifier auto-mode classifier");
    expect(entry?.classifier?.behavior).toBe("allow");
  });

  it.each([
    { name: "a deny rule", deny: ["Touch"], verdict: "ALLOW: fine", classifierAsked: false },
    { name: "an ask rule", ask: ["Touch"], verdict: "ALLOW: fine", classifierAsked: true },
    { name: "an ASK verdict", verdict: "ASK: not requested", classifierAsked: true },
    { name: "an unclear verdict", verdict: "Sure, go ahead!", classifierAsked: true },
    // Outside auto mode the classifier judges every call the rules do not refuse, and decides none.
    { name: "default mode", mode: "default" as const, verdict: "ALLOW: fine", classifierAsked: true },
  ])("never allows past $name", async ({ name: _name, verdict, classifierAsked, ...rest }) => {
    const { server, entry } = await runAuto({ verdict, ...rest });
    expect(touched).toEqual([]);
    expect(server.classifierRequests.length > 0).toBe(classifierAsked);
    expect(server.requests.some((request) => isClassifierRequest(request.body))).toBe(false);
    expect(entry?.behavior).toBe("deny");
    expect(entry?.decidedBy).not.toMatch(/classifier/);
  });

  it.each([
    ["ALLOW: runs the tests", "allow"],
    ["allow", "allow"],
    ["ASK: pushes to a remote", "ask"],
    ["ALLOWED", "ask"],
    ["I think ALLOW", "ask"],
    ["", "ask"],
  ])("reads %j as %s", (answer, behavior) => {
    expect(parseVerdict(answer).behavior).toBe(behavior);
  });
});
