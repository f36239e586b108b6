// Test helper: a temp home, project and managed-policy file, with an env pointing Keel at them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TestWorld {
  root: string;
  home: string;
  project: string;
  managed: string;
  env: NodeJS.ProcessEnv;
  /** Writes JSON (or raw text) to a path relative to the world root. */
  write(relative: string, content: unknown): string;
  cleanup(): void;
}

export function createTestWorld(): TestWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-settings-")));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const managed = join(root, "etc", "managed-settings.json");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    KEEL_DECISION_SERVER: "off",
    HOME: home,
    KEEL_HOME: home,
    KEEL_MANAGED_SETTINGS: managed,
  };
  return {
    root,
    home,
    project,
    managed,
    env,
    write(relative, content) {
      const path = join(root, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
