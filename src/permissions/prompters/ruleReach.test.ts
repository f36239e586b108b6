// A rule's reach in words, as the "don't ask again for ..." choice says it.
import { describe, expect, it } from "vitest";
import { describeRuleReach, describeRulesReach } from "./ruleReach.ts";

const ROOT = "/home/me/project";

describe("describeRuleReach", () => {
  it.each([
    ["Bash(npm run test:*)", "`npm run test` commands"],
    ["Bash(make build)", "the command `make build`"],
    ["WebFetch(domain:docs.example.com)", "fetches from docs.example.com"],
    ["Read(//etc/**)", "reading files in /etc/"],
    ["Edit(//tmp/out/**)", "edits in /tmp/out/"],
    ["Edit(/src/**)", "edits in /home/me/project/src/"],
    ["Edit(/**)", "edits in /home/me/project/"],
    ["mcp__github__create_issue", "mcp__github__create_issue"],
    ["WebSearch", "WebSearch"],
    ["Grep(*.ts)", "Grep(*.ts)"],
    ["not a (rule", "not a (rule"],
  ])("%s", (rule, reach) => {
    expect(describeRuleReach(rule, ROOT)).toBe(reach);
  });

  it("lists several command prefixes as one phrase, other mixes joined", () => {
    expect(describeRulesReach(["Bash(git add:*)", "Bash(git commit:*)", "Bash(npm test:*)"], ROOT)).toBe(
      "`git add`, `git commit` and `npm test` commands",
    );
    expect(describeRulesReach(["Bash(git add:*)", "Bash(make)"], ROOT)).toBe(
      "`git add` commands and the command `make`",
    );
  });
});
