import { describe, expect, it } from "vitest";
import { addRules, getEmptyToolPermissionContext, updatePermissionContext } from "../tool/context.ts";
import { arbitraryCodeReason, autoModeRuleNotice, rulesSetAsideInAuto } from "./autoModeRules.ts";
import { listRules } from "./matchers.ts";
import { parseRuleValue } from "./rules.ts";

// Allow rules auto mode must set aside (they let any code run), and rules it must keep.
const SET_ASIDE = [
  "Bash",
  "Bash(*)",
  "Bash(:*)",
  "Bash(python3:*)",
  "Bash(python:*)",
  "Bash(python3.12:*)",
  "Bash(node:*)",
  "Bash(bash:*)",
  "Bash(sh -c:*)",
  "Bash(bash -c *)",
  "Bash(python3 -c:*)",
  "Bash(node -e:*)",
  "Bash(perl:*)",
  "Bash(ruby *)",
  "Bash(py*)",
  "Bash(npx:*)",
  "Bash(npx *)",
  "Bash(pnpm dlx:*)",
  "Bash(npm exec:*)",
  "Bash(npm run:*)",
  "Bash(npm:*)",
  "Bash(uvx:*)",
  "Bash(uv run:*)",
  "Bash(env:*)",
  "Bash(env FOO=1:*)",
  "Bash(timeout 10:*)",
  "Bash(timeout 10 python3:*)",
  "Bash(nohup:*)",
  "Bash(xargs:*)",
  "Bash(sudo:*)",
  "Bash(watch:*)",
  "Bash(FOO=1 python3:*)",
  "Bash(deno eval:*)",
];
const KEPT = [
  "Bash(npm test:*)",
  "Bash(npm run test:*)",
  "Bash(git status:*)",
  "Bash(ls:*)",
  "Bash(python3 manage.py test:*)",
  "Bash(node scripts/build.js:*)",
  "Bash(python3 -c print\\(1\\))",
  "Bash(npx prettier:*)",
  "Bash(timeout 10 npm test:*)",
  "Bash(cargo build:*)",
  "Read",
  "Edit(src/**)",
  "WebFetch(domain:example.com)",
];

describe("arbitraryCodeReason", () => {
  it.each(SET_ASIDE)("sets aside %s", (rule) => {
    expect(arbitraryCodeReason(parseRuleValue(rule))).toBeTypeOf("string");
  });
  it.each(KEPT)("keeps %s", (rule) => {
    expect(arbitraryCodeReason(parseRuleValue(rule))).toBeUndefined();
  });
});

describe("auto mode and allow rules", () => {
  const policy = addRules(getEmptyToolPermissionContext("/p"), "allow", "local", [
    "Bash(python3:*)",
    "Bash(npm test:*)",
  ]);
  const names = (context: typeof policy) => listRules(context, "allow").map((rule) => rule.value.ruleContent);

  it("leaves the interpreter rule out in auto mode and restores it on leaving", () => {
    expect(names(policy)).toEqual(["python3:*", "npm test:*"]);
    const auto = updatePermissionContext(policy, { mode: "auto" });
    expect(names(auto)).toEqual(["npm test:*"]);
    expect(listRules(auto, "allow", { includeSetAside: true })).toHaveLength(2);
    const back = updatePermissionContext(auto, { mode: "default" });
    expect(names(back)).toEqual(["python3:*", "npm test:*"]);
  });

  it("tells the person which rules, entering and leaving", () => {
    expect(rulesSetAsideInAuto(policy)).toEqual([
      { rule: "Bash(python3:*)", source: "local", reason: "python3 runs any code it is given" },
    ]);
    expect(autoModeRuleNotice("default", "auto", policy)).toMatch(/sets aside .*Bash\(python3:\*\) \(local/);
    expect(autoModeRuleNotice("auto", "default", policy)).toMatch(/apply again: Bash\(python3:\*\)/);
    expect(autoModeRuleNotice("default", "plan", policy)).toBeUndefined();
  });
});
