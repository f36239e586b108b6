// The settings keys that draw no warning are the schema's own keys plus Claude Code's keys that Keel leaves
// alone: nothing written out twice. Warnings for whole files are in typos.test.ts.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { parseJsonWithPositions } from "./jsonPositions.ts";
import { CLAUDE_CODE_ONLY_KEYS, knownKeys, schemaObjectKeys, unknownKeyWarnings } from "./knownKeys.ts";
import { settingsFileSchema } from "./schema.ts";

const at = (path: readonly string[]) => path.join(".");
const warningsFor = (settings: unknown) =>
  unknownKeyWarnings(parseJsonWithPositions(JSON.stringify(settings)), "f");

describe("the known settings keys", () => {
  it("are checked in every object of the schema, and not inside records (hooks, env, servers)", () => {
    expect(knownKeys().map(({ path }) => at(path))).toEqual([
      "",
      "permissions",
      "sandbox",
      "sandbox.network",
      "sandbox.filesystem",
      "telemetry",
      "worktree",
      "agents",
      "agents.remote",
      "agents.remote.queue",
      "audit",
    ]);
  });

  it("are the schema's keys plus Claude Code's own at the same place", () => {
    const extras = new Map(CLAUDE_CODE_ONLY_KEYS.map(({ path, keys }) => [at(path), keys]));
    for (const { path, keys } of knownKeys()) {
      const schemaKeys = schemaObjectKeys(settingsFileSchema()).find(
        (entry) => at(entry.path) === at(path),
      )!.keys;
      expect(new Set(keys), at(path)).toEqual(new Set([...schemaKeys, ...(extras.get(at(path)) ?? [])]));
    }
  });

  it("list Claude Code's keys only where the schema has an object, and none Keel reads", () => {
    const schema = new Map(schemaObjectKeys(settingsFileSchema()).map(({ path, keys }) => [at(path), keys]));
    for (const { path, keys } of CLAUDE_CODE_ONLY_KEYS) {
      expect(schema.has(at(path)), at(path)).toBe(true);
      for (const key of keys) expect(schema.get(at(path)), `${at(path)}.${key}`).not.toContain(key);
    }
  });

  it("follow the schema: a key added to it is known at once", () => {
    const schema = z.looseObject({
      a: z.string().optional(),
      b: z.looseObject({ c: z.number() }).optional(),
      d: z.union([z.string(), z.looseObject({ e: z.string() })]).optional(),
      f: z.record(z.string(), z.looseObject({ g: z.string() })),
      h: z.array(z.looseObject({ i: z.string() })),
    });
    expect(schemaObjectKeys(schema)).toEqual([
      { path: [], keys: ["a", "b", "d", "f", "h"] },
      { path: ["b"], keys: ["c"] },
      { path: ["d"], keys: ["e"] },
    ]);
  });

  it.each([
    [{ model: "opus", provider: "openai", baseUrl: "http://127.0.0.1:1", contextWindow: 1000 }, []],
    [{ classifierModel: "haiku", statusLine: {}, $schema: "x" }, []],
    [{ permissions: { disableAutoMode: "disable", additionalDirectories: [] } }, []],
    [{ sandbox: { network: { httpProxyPort: 1, allowedDomains: [] }, filesystem: { allowRead: [] } } }, []],
    [{ agents: { remote: { queue: { url: "redis://x", name: "q" }, gitRemote: "origin" } } }, []],
    [{ hooks: { AnyEvent: [] }, env: { ANY: "x" }, mcpServers: { any: { anyKey: 1 } } }, []],
    [{ modle: "opus" }, ['f:1:2: unknown setting "modle" (ignored); did you mean "model"?']],
    [{ sandbox: { network: { httpProxyPrt: 1 } } }, ['unknown setting "sandbox.network.httpProxyPrt"']],
    [{ agents: { remote: { queue: { nmae: "q" } } } }, ['unknown setting "agents.remote.queue.nmae"']],
    [{ worktree: { dir: "x" } }, ['unknown setting "worktree.dir"']],
  ])("%j warns %j", (settings, expected) => {
    const warnings = warningsFor(settings);
    expect(warnings).toHaveLength(expected.length);
    for (const [index, text] of expected.entries()) expect(warnings[index]).toContain(text);
  });
});
