import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { decidePermission } from "./engine.ts";
import type { PermissionMode, PermissionResult } from "./types.ts";

type Input = { target: string };

function probe(
  check: PermissionResult<Input> | undefined,
  options: { readOnly?: boolean; person?: boolean } = {},
): Tool<Input> {
  return buildTool<Input>({
    name: "Probe",
    aliases: ["OldProbe"],
    inputSchema: z.object({ target: z.string() }),
    maxResultSizeChars: 100,
    description: () => "",
    prompt: () => "",
    call: async () => ({ data: "" }),
    isReadOnly: options.readOnly ?? false,
    // The test family's content matcher: the specifier is a prefix of the target.
    ruleMatcher: {
      matches: ({ rule, input }) => (input as Input).target.startsWith(rule.value.ruleContent ?? ""),
    },
    ...(check ? { checkPermissions: async () => check } : {}),
    ...(options.person ? { requiresUserInteraction: () => true } : {}),
  });
}

const passthrough: PermissionResult<Input> = { behavior: "passthrough" };
const toolAllow: PermissionResult<Input> = {
  behavior: "allow",
  decisionReason: { type: "tool", reason: "read inside project" },
};
const toolAsk: PermissionResult<Input> = {
  behavior: "ask",
  message: "looks risky",
  decisionReason: { type: "tool", reason: "risky" },
};
const toolDeny: PermissionResult<Input> = {
  behavior: "deny",
  message: "never",
  decisionReason: { type: "tool", reason: "never" },
};
const safety: PermissionResult<Input> = {
  behavior: "ask",
  message: "protected",
  decisionReason: { type: "safetyCheck", reason: ".git" },
};

interface Row {
  name: string;
  check?: PermissionResult<Input>;
  mode?: PermissionMode;
  allow?: string[];
  deny?: string[];
  ask?: string[];
  readOnly?: boolean;
  person?: boolean;
  target?: string;
  expected: "allow" | "ask" | "deny";
  by: string;
}

const rows: Row[] = [
  // 1. blanket deny
  {
    name: "blanket deny beats everything",
    check: toolAllow,
    deny: ["Probe"],
    allow: ["Probe"],
    mode: "bypassPermissions",
    expected: "deny",
    by: "rule",
  },
  { name: "blanket deny by alias", check: toolAllow, deny: ["OldProbe"], expected: "deny", by: "rule" },
  { name: "`*` denies every tool", check: toolAllow, deny: ["*"], expected: "deny", by: "rule" },
  {
    name: "content deny rule",
    check: toolAllow,
    deny: ["Probe(sec)"],
    target: "secret",
    expected: "deny",
    by: "rule",
  },
  {
    name: "content deny rule that does not match",
    check: toolAllow,
    deny: ["Probe(sec)"],
    target: "public",
    expected: "allow",
    by: "tool",
  },
  // 2. blanket ask
  {
    name: "blanket ask beats the tool's allow",
    check: toolAllow,
    ask: ["Probe"],
    expected: "ask",
    by: "rule",
  },
  {
    name: "blanket ask beats bypass",
    check: passthrough,
    ask: ["Probe"],
    mode: "bypassPermissions",
    expected: "ask",
    by: "rule",
  },
  // 3-4. the tool's own check
  { name: "tool deny", check: toolDeny, allow: ["Probe"], expected: "deny", by: "tool" },
  {
    name: "tool deny beats bypass",
    check: toolDeny,
    mode: "bypassPermissions",
    expected: "deny",
    by: "tool",
  },
  // plan mode
  {
    name: "plan mode refuses a tool that changes things",
    check: toolAllow,
    mode: "plan",
    expected: "deny",
    by: "mode",
  },
  {
    name: "plan mode lets read-only tools through",
    check: toolAllow,
    mode: "plan",
    readOnly: true,
    expected: "allow",
    by: "tool",
  },
  // 5. needs a person
  {
    name: "a tool needing a person asks even in bypass",
    check: toolAsk,
    person: true,
    mode: "bypassPermissions",
    expected: "ask",
    by: "tool",
  },
  // 6. content ask rule, even in bypass
  {
    name: "content ask rule in bypass",
    check: passthrough,
    ask: ["Probe(dep)"],
    target: "deploy",
    mode: "bypassPermissions",
    expected: "ask",
    by: "rule",
  },
  {
    name: "content ask rule beats an allow rule",
    check: passthrough,
    ask: ["Probe(dep)"],
    allow: ["Probe"],
    target: "deploy",
    expected: "ask",
    by: "rule",
  },
  // 7. safety check, even in bypass
  {
    name: "safety check asks in bypass",
    check: safety,
    mode: "bypassPermissions",
    expected: "ask",
    by: "safetyCheck",
  },
  {
    name: "safety check beats a blanket allow",
    check: safety,
    allow: ["Probe"],
    expected: "ask",
    by: "safetyCheck",
  },
  {
    name: "safety check beats acceptEdits",
    check: safety,
    mode: "acceptEdits",
    expected: "ask",
    by: "safetyCheck",
  },
  // 8. bypass
  {
    name: "bypass allows an ordinary ask",
    check: toolAsk,
    mode: "bypassPermissions",
    expected: "allow",
    by: "mode",
  },
  {
    name: "bypass allows a passthrough",
    check: passthrough,
    mode: "bypassPermissions",
    expected: "allow",
    by: "mode",
  },
  // 9. blanket allow
  { name: "blanket allow", check: passthrough, allow: ["Probe"], expected: "allow", by: "rule" },
  {
    name: "blanket allow beats the tool's ordinary ask",
    check: toolAsk,
    allow: ["Probe"],
    expected: "allow",
    by: "rule",
  },
  // the tool's own verdicts
  { name: "tool allow", check: toolAllow, expected: "allow", by: "tool" },
  {
    name: "tool ask is not overridden by a content allow rule",
    check: toolAsk,
    allow: ["Probe(x)"],
    target: "x",
    expected: "ask",
    by: "tool",
  },
  // content allow rule
  {
    name: "content allow rule on passthrough",
    check: passthrough,
    allow: ["Probe(x)"],
    target: "xyz",
    expected: "allow",
    by: "rule",
  },
  {
    name: "content allow rule that does not match",
    check: passthrough,
    allow: ["Probe(x)"],
    target: "abc",
    expected: "ask",
    by: "default",
  },
  // otherwise ask
  { name: "default tool with no rule asks", check: undefined, expected: "ask", by: "default" },
  // dontAsk
  {
    name: "dontAsk turns an ask into deny",
    check: passthrough,
    mode: "dontAsk",
    expected: "deny",
    by: "mode",
  },
  {
    name: "dontAsk keeps allows",
    check: passthrough,
    mode: "dontAsk",
    allow: ["Probe"],
    expected: "allow",
    by: "rule",
  },
  {
    name: "dontAsk turns a safety ask into deny",
    check: safety,
    mode: "dontAsk",
    expected: "deny",
    by: "mode",
  },
  // acceptEdits has no effect on its own: tools decide what it covers
  {
    name: "acceptEdits alone does not allow a passthrough",
    check: passthrough,
    mode: "acceptEdits",
    expected: "ask",
    by: "default",
  },
];

describe("decision order, rule by rule", () => {
  it.each(rows)("$name -> $expected by $by", async (row) => {
    const tool = probe(row.check, { readOnly: row.readOnly ?? false, person: row.person ?? false });
    const context = createToolUseContext({
      tools: [tool as Tool],
      cwd: "/project",
      mode: row.mode ?? "default",
      allow: row.allow ?? [],
      deny: row.deny ?? [],
      ask: row.ask ?? [],
    });
    const decision = await decidePermission(tool, { target: row.target ?? "t" }, context);
    expect(decision.behavior).toBe(row.expected);
    expect(decision.decisionReason.type).toBe(row.by);
  });

  it("a rule of a family without a registered matcher: deny and ask apply, allow does not", async () => {
    const tool = buildTool<Input>({
      name: "Unmatched",
      inputSchema: z.object({ target: z.string() }),
      maxResultSizeChars: 100,
      description: () => "",
      prompt: () => "",
      call: async () => ({ data: "" }),
    });
    const deny = createToolUseContext({ tools: [tool as Tool], deny: ["Unmatched(whatever)"] });
    expect((await decidePermission(tool, { target: "x" }, deny)).behavior).toBe("deny");
    const allow = createToolUseContext({ tools: [tool as Tool], allow: ["Unmatched(whatever)"] });
    expect((await decidePermission(tool, { target: "x" }, allow)).behavior).toBe("ask");
  });

  it("a malformed rule is ignored rather than widening anything", async () => {
    const tool = probe(passthrough);
    const context = createToolUseContext({ tools: [tool as Tool], allow: ["Probe(unclosed"] });
    expect((await decidePermission(tool, { target: "t" }, context)).behavior).toBe("ask");
  });

  it("rules from every source merge; the decision names the source", async () => {
    const tool = probe(passthrough);
    const context = createToolUseContext({ tools: [tool as Tool], allow: ["Probe"], ruleSource: "project" });
    const decision = await decidePermission(tool, { target: "t" }, context);
    expect(decision.decisionReason).toMatchObject({
      type: "rule",
      rule: { source: "project", behavior: "allow" },
    });
  });
});
