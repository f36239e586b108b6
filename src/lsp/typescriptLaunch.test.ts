// Which TypeScript server runs, on real folders laid out as npm installs them.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundledTypeScript, nativeExecutable, typescriptLaunch } from "./typescriptLaunch.ts";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-tslaunch-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function installTypeScript(version: string): void {
  const dir = join(root, "node_modules", "typescript");
  mkdirSync(join(dir, "lib"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "typescript", version }));
  if (version.startsWith("7")) {
    const platform = join(
      root,
      "node_modules",
      "@typescript",
      `typescript-${process.platform}-${process.arch}`,
    );
    mkdirSync(join(platform, "lib"), { recursive: true });
    writeFileSync(join(platform, "package.json"), JSON.stringify({ name: "platform", version }));
    writeFileSync(join(platform, "lib", "tsc"), "#!/bin/sh\n");
    chmodSync(join(platform, "lib", "tsc"), 0o755);
  } else {
    writeFileSync(join(dir, "lib", "tsserver.js"), "// tsserver\n");
  }
}

describe("typescriptLaunch", () => {
  it("without a project TypeScript: the bundled TypeScript 7 native server", () => {
    const launch = typescriptLaunch(root, true);
    const bundled = bundledTypeScript();
    expect(bundled?.version).toMatch(/^7\./);
    expect(launch?.command).toBe(bundled ? nativeExecutable(bundled) : undefined);
    expect(launch?.args).toEqual(["--lsp", "--stdio"]);
    expect(launch?.description).toMatch(/native language server \(bundled with Keel\)/);
  });

  it("a trusted project's TypeScript 5/6: typescript-language-server over the project's own tsserver", () => {
    installTypeScript("5.9.3");
    const launch = typescriptLaunch(root, true);
    expect(launch?.command).toBe(process.execPath);
    expect(launch?.args[0]).toMatch(/typescript-language-server[/\\]lib[/\\]cli\.mjs$/);
    expect(launch?.initializationOptions).toEqual({
      tsserver: {
        path: join(root, "node_modules", "typescript", "lib", "tsserver.js"),
        useSyntaxServer: "never",
      },
    });
    expect(launch?.description).toBe("typescript-language-server with the project's own TypeScript 5.9.3");
  });

  it("a trusted project's TypeScript 7: its own native server", () => {
    installTypeScript("7.1.0");
    const launch = typescriptLaunch(root, true);
    expect(launch?.command).toBe(
      join(
        root,
        "node_modules",
        "@typescript",
        `typescript-${process.platform}-${process.arch}`,
        "lib",
        "tsc",
      ),
    );
    expect(launch?.description).toBe("TypeScript 7.1.0 native language server (the project's own)");
  });

  it("an untrusted project's TypeScript is not run: the bundled one serves", () => {
    installTypeScript("5.9.3");
    expect(typescriptLaunch(root, false)?.description).toMatch(/bundled with Keel/);
  });
});
