// Which TypeScript language server runs for a workspace. TypeScript 7 ships a native language server
// (`tsc --lsp --stdio`); on Keel's own source (bench/lsp.bench.ts with KEEL_BENCH_TSSERVER, 2 shared
// cores, 2026-11) it answered the first goToDefinition in 4.7 s against 23.3 s for
// typescript-language-server 6 over TypeScript 5.9's tsserver, and warm medians of 0.6 ms against
// 3.6 ms (goToDefinition) and 16 ms against 161 ms (findReferences), so it is the bundled default.
// A trusted project's own TypeScript is used instead: its native server when it is 7 or later, else
// typescript-language-server over the project's own tsserver.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { ServerLaunch } from "./launch.ts";

export interface TypeScriptPackage {
  dir: string;
  version: string;
}

const INSTALL_HINT =
  "Keel bundles TypeScript 7; reinstall Keel (npm install) to restore it, or add the project's own with `npm install -D typescript`.";

function majorOf(version: string): number {
  return Number.parseInt(version.split(".")[0] ?? "", 10);
}

function readPackage(dir: string): TypeScriptPackage | undefined {
  try {
    const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
    return typeof json.version === "string" ? { dir, version: json.version } : undefined;
  } catch {
    return undefined;
  }
}

/** The project's own `node_modules/typescript`, if it has one. */
export function projectTypeScript(root: string): TypeScriptPackage | undefined {
  return readPackage(join(root, "node_modules", "typescript"));
}

/** The TypeScript Keel itself depends on. */
export function bundledTypeScript(): TypeScriptPackage | undefined {
  try {
    return readPackage(dirname(createRequire(import.meta.url).resolve("typescript/package.json")));
  } catch {
    return undefined;
  }
}

/** TypeScript 7's native executable, shipped in a per-platform package beside `typescript`. */
export function nativeExecutable(typescript: TypeScriptPackage): string | undefined {
  const platformPackage = `@typescript/typescript-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(join(typescript.dir, "package.json"));
    const dir = dirname(require.resolve(`${platformPackage}/package.json`));
    const exe = join(dir, "lib", process.platform === "win32" ? "tsc.exe" : "tsc");
    return existsSync(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

function typescriptLanguageServer(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve("typescript-language-server/package.json")), "lib", "cli.mjs");
  } catch {
    return undefined;
  }
}

function nativeLaunch(typescript: TypeScriptPackage, whose: string): ServerLaunch | undefined {
  const exe = nativeExecutable(typescript);
  if (!exe) return undefined;
  return {
    command: exe,
    args: ["--lsp", "--stdio"],
    description: `TypeScript ${typescript.version} native language server (${whose})`,
    installHint: INSTALL_HINT,
  };
}

/**
 * How to serve TypeScript and JavaScript in `root`. `useProjectTypeScript` runs the project's own
 * compiler, which is the project's code: only for folders the user trusts.
 */
export function typescriptLaunch(root: string, useProjectTypeScript: boolean): ServerLaunch | undefined {
  const own = useProjectTypeScript ? projectTypeScript(root) : undefined;
  if (own && majorOf(own.version) >= 7) {
    const launch = nativeLaunch(own, "the project's own");
    if (launch) return launch;
  }
  if (own) {
    const tsserver = join(own.dir, "lib", "tsserver.js");
    const cli = typescriptLanguageServer();
    if (cli && existsSync(tsserver))
      return {
        command: process.execPath,
        args: [cli, "--stdio"],
        // Without the syntax-only server, answers wait for the whole project instead of being partial.
        initializationOptions: { tsserver: { path: tsserver, useSyntaxServer: "never" } },
        description: `typescript-language-server with the project's own TypeScript ${own.version}`,
        installHint: INSTALL_HINT,
      };
  }
  const bundled = bundledTypeScript();
  return bundled ? nativeLaunch(bundled, "bundled with Keel") : undefined;
}
