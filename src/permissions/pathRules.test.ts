import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolPermissionContext } from "../tool/context.ts";
import { addRules, getEmptyToolPermissionContext, updatePermissionContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import { ReadTool } from "../tools/read/ReadTool.ts";
import { findDenyRule } from "./engine.ts";
import {
  compilePathRule,
  PATH_RULE_NAMES,
  PATH_RULE_NAMES_BY_ACCESS,
  pathRuleMatcher,
  pathRuleMatches,
  readDenyGlobs,
  validatePathRuleContent,
} from "./pathRules.ts";
import type { RuleBehavior, RuleSource } from "./types.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-pathrules-")));
const P = join(base, "proj");
const U = join(base, "userroot");
const OUT = join(base, "outside");
const H = homedir();
for (const dir of [P, U, OUT, join(P, "build"), join(P, "src")]) mkdirSync(dir, { recursive: true });
writeFileSync(join(OUT, "secret.txt"), "s");
symlinkSync(join(OUT, "secret.txt"), join(P, "link.txt"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const permissionContext = updatePermissionContext(getEmptyToolPermissionContext(P), {
  ruleRoots: { project: P, local: P, user: U, cliArg: P, session: P },
});

interface Row {
  rule: string;
  source?: RuleSource;
  behavior?: RuleBehavior;
  match: string[];
  notMatch: string[];
}

const rows: Row[] = [
  {
    rule: "*.env",
    match: [`${P}/.env`, `${P}/a/b/x.env`, `${OUT}/.env`],
    notMatch: [`${P}/env.txt`, `${P}/.env.d/a`],
  },
  { rule: "*.env", behavior: "allow", match: [`${P}/a/x.env`], notMatch: [`${OUT}/.env`] },
  {
    rule: "/src/**",
    source: "project",
    match: [`${P}/src/a.ts`, `${P}/src/deep/b.ts`],
    notMatch: [
      `${P}/lib/src/a.ts`,
      `${base}/proj_evil/src/a.ts`,
      `${P}/srcx/a.ts`,
      `${P}/src/../../outside/f`,
    ],
  },
  { rule: "/src/**", source: "user", match: [`${U}/src/a.ts`], notMatch: [`${P}/src/a.ts`] },
  { rule: "//etc/passwd", match: ["/etc/passwd"], notMatch: ["/etc/passwd2", `${P}/etc/passwd`] },
  { rule: "~/.ssh/**", match: [`${H}/.ssh/id_rsa`], notMatch: [`${P}/.ssh/id_rsa`] },
  { rule: "~", match: [`${H}/anything/at/all`], notMatch: [`${P}/a`] },
  { rule: "./secrets/**", match: [`${P}/secrets/k`], notMatch: [`${P}/a/secrets/k`] },
  {
    rule: "secrets",
    match: [`${P}/a/secrets/k`, `${P}/secrets`],
    notMatch: [`${P}/secrets2/k`, `${P}/a/mysecrets`],
  },
  { rule: "src/*.ts", match: [`${P}/src/a.ts`], notMatch: [`${P}/src/x/a.ts`, `${P}/lib/src/a.ts`] },
  { rule: "**/*.key", match: [`${P}/a/b/c.key`, `${P}/c.key`], notMatch: [`${P}/c.keys`] },
  { rule: "*.ENV", match: [`${P}/x.env`], notMatch: [] },
  { rule: "/SRC/**", behavior: "allow", match: [`${P}/SRC/a`], notMatch: [`${P}/src/a`] },
  { rule: "/", source: "project", match: [`${P}/a/b`], notMatch: [`${OUT}/a`] },
  { rule: "build/", match: [`${P}/build`, `${P}/build/x.js`], notMatch: [`${P}/builder/x.js`] },
  { rule: `/${OUT}/**`, match: [`${P}/link.txt`, `${OUT}/secret.txt`], notMatch: [`${P}/src/a.ts`] },
  {
    rule: "/**",
    source: "project",
    behavior: "allow",
    match: [`${P}/src/a.ts`],
    notMatch: [`${P}/link.txt`],
  },
];

describe("path rule matcher table", () => {
  for (const row of rows) {
    const behavior = row.behavior ?? "deny";
    const source = row.source ?? "project";
    for (const path of row.match) {
      it(`${behavior} ${row.rule} (${source}) matches ${path.replace(base, "<base>")}`, () => {
        expect(pathRuleMatches(row.rule, source, behavior, path, permissionContext, P)).toBe(true);
      });
    }
    for (const path of row.notMatch) {
      it(`${behavior} ${row.rule} (${source}) does not match ${path.replace(base, "<base>")}`, () => {
        expect(pathRuleMatches(row.rule, source, behavior, path, permissionContext, P)).toBe(false);
      });
    }
  }

  it("relative paths resolve against the given cwd", () => {
    expect(pathRuleMatches("/src/**", "project", "deny", "src/a.ts", permissionContext, P)).toBe(true);
    expect(
      pathRuleMatches("/src/**", "project", "deny", "../src/a.ts", permissionContext, join(P, "src")),
    ).toBe(true);
  });
});

describe("compilePathRule anchors", () => {
  it.each([
    ["//abs/x", "/", "/abs/x"],
    ["~/docs/*.pdf", H, "/docs/*.pdf"],
    ["/src/**", P, "/src/**"],
    ["./a/b", P, "/a/b"],
    ["*.env", P, "*.env"],
  ])("%s", (content, root, pattern) => {
    expect(compilePathRule(content, "project", permissionContext)).toMatchObject({ root, pattern });
  });

  it("falls back to the project root when the source has no settings folder", () => {
    const bare = getEmptyToolPermissionContext(P);
    expect(compilePathRule("/x", "policy", bare).root).toBe(P);
  });
});

describe("validation and registration", () => {
  it.each([["!foo"], [""], ["  "]])("rejects %j", (content) => {
    expect(validatePathRuleContent(content)).toBeDefined();
  });
  it("accepts ordinary patterns", () => {
    expect(validatePathRuleContent("src/**")).toBeUndefined();
  });
  it("every built-in tool in a path rule family declares the path matcher", () => {
    const pathTools = builtinTools().filter((tool) =>
      (tool.permissionRuleNames ?? [tool.name]).some((name) => PATH_RULE_NAMES.includes(name)),
    );
    expect(pathTools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS"]),
    );
    for (const tool of pathTools) expect(tool.ruleMatcher, tool.name).toBe(pathRuleMatcher);
  });

  it("the path rule families are the rule names of the tools with path access, and only those", () => {
    for (const tool of builtinTools()) {
      const names = tool.permissionRuleNames ?? [tool.name];
      if (tool.pathAccess)
        for (const name of names) expect(PATH_RULE_NAMES_BY_ACCESS[tool.pathAccess]).toContain(name);
      else for (const name of names) expect(PATH_RULE_NAMES, tool.name).not.toContain(name);
    }
  });

  it.each([
    ["Read", "read"],
    ["Edit", "write"],
    ["Write", "write"],
    ["MultiEdit", "write"],
    ["NotebookEdit", "write"],
    ["Glob", undefined],
    ["Grep", undefined],
    ["LS", undefined],
    ["LSP", undefined],
    ["Bash", undefined],
    ["WebFetch", undefined],
    ["Agent", undefined],
  ] as const)("%s rules are path rules for: %s", (name, access) => {
    expect(PATH_RULE_NAMES.includes(name)).toBe(access !== undefined);
    expect(PATH_RULE_NAMES_BY_ACCESS.read.includes(name)).toBe(access === "read");
    expect(PATH_RULE_NAMES_BY_ACCESS.write.includes(name)).toBe(access === "write");
  });
});

async function readDenied(path: string, policy: ToolPermissionContext): Promise<boolean> {
  const context = createToolUseContext({ tools: [ReadTool], permissionContext: policy });
  return (await findDenyRule(ReadTool, { file_path: path }, context)) !== undefined;
}

describe("findDenyRule with Read rules", () => {
  const denied = addRules(permissionContext, "deny", "project", [
    "Read(*.pem)",
    "Read(/private/**)",
    "Edit(/src/**)",
  ]);
  it.each([
    [`${P}/keys/a.pem`, true],
    [`${P}/private/x`, true],
    [`${P}/src/a.ts`, false],
    [`${P}/public/x`, false],
  ])("%s -> %s", async (path, expected) => {
    expect(await readDenied(path, denied)).toBe(expected);
  });
  it("a blanket Read deny denies everything", async () => {
    expect(await readDenied(`${P}/a`, addRules(permissionContext, "deny", "user", ["Read"]))).toBe(true);
  });
});

describe("readDenyGlobs", () => {
  const cases: Array<[string[], string, string[]]> = [
    [["Read(*.env)"], P, ["*.env"]],
    [["Read(/secrets/**)"], P, ["/secrets/**"]],
    [["Read(/secrets/**)"], `${P}/secrets`, ["**"]],
    [["Read(/secrets/**)"], `${P}/secrets/deep`, ["**"]],
    [["Read(/secrets/**)"], `${P}/src`, []],
    [["Read(/secrets)"], `${P}/secrets/a`, ["**"]],
    [["Read(/a/*/c/**)"], `${P}/a/b`, ["/c/**"]],
    [["Read(/a/*/c/**)"], `${P}/a`, ["/*/c/**"]],
    [["Read(/a/*/c/**)"], `${P}/x`, []],
    [["Read(/**/*.pem)"], `${P}/x`, ["**/*.pem"]],
    [["Read(//etc/**)"], P, []],
    [[`Read(/${P}/x/**)`], P, ["/x/**"]],
    [["Read(/deep/er/**)"], base, ["/proj/deep/er/**"]],
    [["Read"], P, ["**"]],
    [["Edit(/secrets/**)"], P, []],
  ];
  for (const [rules, root, expected] of cases) {
    it(`${rules.join(",")} under ${root.replace(base, "<base>")} -> ${JSON.stringify(expected)}`, () => {
      const context = addRules(permissionContext, "deny", "project", rules);
      expect(readDenyGlobs(context, root).sort()).toEqual([...expected].sort());
    });
  }
});
