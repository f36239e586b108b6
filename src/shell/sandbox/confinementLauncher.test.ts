// The confinement launcher with real bubblewrap: an empty folder at a protected name may be another Keel
// process's stand-in, removed between this command's layout and its bubblewrap start. The command still
// runs, the name stays unwritable inside, and the folder bubblewrap had to make again is removed after.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPermissionContext } from "../../tool/createContext.ts";
import { confinementAvailability } from "./confinementAvailability.ts";
import { createConfinementLauncher } from "./confinementLauncher.ts";

const availability = confinementAvailability(process.env);

let base: string;
let home: string;
let root: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-launcher-")));
  home = join(base, "home");
  root = join(base, "project");
  mkdirSync(home);
  mkdirSync(root);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function run(script: string, beforeStart: () => void) {
  const context = buildPermissionContext({ cwd: root, confinement: true });
  const launcher = createConfinementLauncher(context, { profile: "strict", home });
  const { argv, env } = await launcher.prepare(script, root);
  beforeStart();
  const result = spawnSync(argv[0]!, argv.slice(1), { cwd: root, env, encoding: "utf8" });
  launcher.release?.();
  return result;
}

describe.skipIf(!availability.available)("the confinement launcher", () => {
  it("runs a command whose empty protected folder went away before bubblewrap started", async () => {
    // Another process's stand-in, seen empty by this command's layout, removed before its start.
    const other = join(root, ".vscode");
    const otherInHome = join(home, ".aws");
    mkdirSync(other);
    mkdirSync(otherInHome);
    const result = await run("echo ran; mkdir .vscode/x 2>/dev/null || echo refused", () => {
      rmdirSync(other);
      rmdirSync(otherInHome);
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("ran\nrefused\n");
    // The mount points bubblewrap made again are gone with the command.
    expect(existsSync(other)).toBe(false);
    expect(existsSync(otherInHome)).toBe(false);
  });

  it("keeps an empty protected folder that stayed: it is someone's", async () => {
    const kept = join(root, ".idea");
    mkdirSync(kept);
    const result = await run("touch .idea/x 2>/dev/null || echo refused", () => {});
    expect(result.stdout).toBe("refused\n");
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(join(kept, "x"))).toBe(false);
  });
});
