// Which language server serves a file: servers from settings (`lspServers`, the shape Claude Code's
// LSP plugins use in `.lsp.json`) first, then the built-in ones: TypeScript/JavaScript and Python.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import * as z from "zod";
import { builtOnFirstUse } from "../tool/builtOnFirstUse.ts";
import { LSP_ERROR, lspError, type ServerLaunch } from "./launch.ts";
import { typescriptLaunch } from "./typescriptLaunch.ts";

/**
 * One `lspServers` entry, built when a settings file with language servers is first checked. Unknown keys
 * are kept (restartOnCrash, maxRestarts...): Keel restarts once.
 */
export const lspServerSettingsSchema = builtOnFirstUse(() =>
  z.looseObject({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    extensionToLanguage: z.record(z.string(), z.string()),
    env: z.record(z.string(), z.string()).optional(),
    initializationOptions: z.unknown().optional(),
    settings: z.unknown().optional(),
    workspaceFolder: z.string().optional(),
    transport: z.enum(["stdio", "socket"]).optional(),
    /** Milliseconds for the server to finish its handshake. */
    startupTimeout: z.number().int().positive().optional(),
    /** Milliseconds for one answer (Keel's own key). */
    requestTimeout: z.number().int().positive().optional(),
  }),
);

export type LspServerSettings = z.infer<ReturnType<typeof lspServerSettingsSchema>>;

/** A configured server with where it came from, as settings hand it over. */
export interface LspServerEntry {
  name: string;
  config: LspServerSettings;
  /** The settings file, for messages. */
  file?: string;
}

/** What a host puts on `context.options.lsp`. */
export interface LspOptions {
  /** Servers from settings, highest precedence first. */
  servers?: readonly LspServerEntry[];
  /** Run the project's own `node_modules/typescript` (its code): only for trusted folders. */
  useProjectTypeScript?: boolean;
  /** Start a file's server when a file of its language is read or edited, so edits report new errors. */
  startOnFileUse?: boolean;
  /** How long an edit waits for its file's diagnostics (default 2 s). */
  diagnosticsBudgetMs?: number;
}

/** The LSP options of a session from its settings: a project's own TypeScript runs only in trusted folders. */
export function lspOptionsFromSettings(
  settings: { lspServers: readonly LspServerEntry[]; trusted: boolean },
  policy: { startOnFileUse: boolean },
): LspOptions {
  return {
    servers: settings.lspServers,
    useProjectTypeScript: settings.trusted,
    startOnFileUse: policy.startOnFileUse,
  };
}

export interface LanguageServerDefinition {
  name: string;
  /** ".ts" -> "typescript". */
  extensionToLanguage: Readonly<Record<string, string>>;
  startupTimeoutMs: number;
  requestTimeoutMs: number;
  /** A fixed folder the server serves; otherwise the working directory holding the file. */
  workspaceFolder?: string;
  /** "built in", or the settings file. */
  origin: string;
  /** How to start it for one workspace; a ToolError when it is not installed. */
  launch(root: string, options: LspOptions): ServerLaunch;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const TYPESCRIPT_EXTENSIONS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
};

const BUILTIN_SERVERS: readonly LanguageServerDefinition[] = [
  {
    name: "typescript",
    extensionToLanguage: TYPESCRIPT_EXTENSIONS,
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    origin: "built in",
    launch(root, options) {
      const launch = typescriptLaunch(root, options.useProjectTypeScript === true);
      if (launch) return launch;
      throw lspError(
        LSP_ERROR.missing,
        "No TypeScript language server is installed. Keel bundles TypeScript 7: reinstall Keel (npm install), or add one to the project with `npm install -D typescript`.",
      );
    },
  },
  {
    name: "python",
    extensionToLanguage: { ".py": "python", ".pyi": "python" },
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
    origin: "built in",
    launch() {
      let dir: string;
      try {
        dir = dirname(createRequire(import.meta.url).resolve("pyright/package.json"));
      } catch {
        throw lspError(
          LSP_ERROR.missing,
          "The Python language server (pyright) is not installed. Keel bundles it: reinstall Keel (npm install), or install it with `npm install -g pyright` and configure it under lspServers.",
        );
      }
      return {
        command: process.execPath,
        args: [join(dir, "langserver.index.js"), "--stdio"],
        description: "pyright (bundled with Keel)",
        installHint: "Reinstall Keel (npm install) to restore the bundled pyright.",
        leftovers: pyrightTemporaryFolders,
      };
    },
  },
];

/** Well-known servers, suggested when no server is configured for an extension. */
const SUGGESTIONS: ReadonlyArray<{ extensions: string[]; name: string; entry: string; install: string }> = [
  {
    extensions: [".go"],
    name: "go",
    entry: '"go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}}',
    install: "go install golang.org/x/tools/gopls@latest",
  },
  {
    extensions: [".rs"],
    name: "rust",
    entry: '"rust": {"command": "rust-analyzer", "extensionToLanguage": {".rs": "rust"}}',
    install: "rustup component add rust-analyzer",
  },
  {
    extensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"],
    name: "clangd",
    entry:
      '"clangd": {"command": "clangd", "extensionToLanguage": {".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp"}}',
    install: "apt-get install clangd (or your platform's package)",
  },
  {
    extensions: [".rb"],
    name: "ruby",
    entry: '"ruby": {"command": "ruby-lsp", "extensionToLanguage": {".rb": "ruby"}}',
    install: "gem install ruby-lsp",
  },
];

function normalizeExtension(extension: string): string {
  const lower = extension.toLowerCase();
  return lower.startsWith(".") ? lower : `.${lower}`;
}

/** A settings entry as a definition. A socket transport is refused: Keel speaks stdio to servers. */
export function definitionFromSettings(entry: LspServerEntry): LanguageServerDefinition {
  const { config } = entry;
  const origin = entry.file ? `lspServers.${entry.name} in ${entry.file}` : `lspServers.${entry.name}`;
  const extensionToLanguage = Object.fromEntries(
    Object.entries(config.extensionToLanguage).map(([extension, language]) => [
      normalizeExtension(extension),
      language,
    ]),
  );
  return {
    name: entry.name,
    extensionToLanguage,
    startupTimeoutMs: config.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS,
    requestTimeoutMs: config.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(config.workspaceFolder ? { workspaceFolder: config.workspaceFolder } : {}),
    origin,
    launch() {
      if (config.transport === "socket")
        throw lspError(
          LSP_ERROR.startFailed,
          `${origin} asks for the socket transport; Keel talks to language servers over stdio. Remove "transport" or set it to "stdio".`,
        );
      return {
        command: config.command,
        args: config.args ?? [],
        ...(config.env ? { env: config.env } : {}),
        ...(config.initializationOptions !== undefined
          ? { initializationOptions: config.initializationOptions }
          : {}),
        ...(config.settings !== undefined ? { settings: config.settings } : {}),
        description: `${config.command} (${origin})`,
        installHint: `Install ${config.command} and make sure it is on PATH, or change the command of ${origin}.`,
      };
    },
  };
}

function notConfigured(extension: string): Error {
  const suggestion = SUGGESTIONS.find((known) => known.extensions.includes(extension));
  const example = suggestion
    ? `For example (install it first: ${suggestion.install}): {"lspServers": {${suggestion.entry}}}`
    : `For example: {"lspServers": {"<name>": {"command": "<server>", "args": ["--stdio"], "extensionToLanguage": {"${extension || ".ext"}": "<languageId>"}}}}`;
  return lspError(
    LSP_ERROR.notConfigured,
    `No language server is configured for ${extension ? `${extension} files` : "files without an extension"}. Keel has TypeScript/JavaScript and Python built in; other languages need an lspServers entry in .claude/settings.json or .keel/settings.json. ${example}. Until then, use Grep and Read.`,
  );
}

/** The server for a file: a configured one first, then a built-in one; a clear error when there is none. */
export function definitionFor(path: string, options: LspOptions): LanguageServerDefinition {
  const definition = findDefinitionFor(path, options);
  if (!definition) throw notConfigured(extname(path).toLowerCase());
  return definition;
}

/** The server for a file, or undefined when none serves its extension (no error built: a read asks on every call). */
export function findDefinitionFor(path: string, options: LspOptions): LanguageServerDefinition | undefined {
  const extension = extname(path).toLowerCase();
  for (const entry of options.servers ?? []) {
    const definition = definitionFromSettings(entry);
    if (extension in definition.extensionToLanguage) return definition;
  }
  return BUILTIN_SERVERS.find((definition) => extension in definition.extensionToLanguage);
}

/** The LSP languageId of a file for a server. */
export function languageIdOf(definition: LanguageServerDefinition, path: string): string {
  return definition.extensionToLanguage[extname(path).toLowerCase()] ?? "plaintext";
}

/** pyright keeps its temporary files in <tmp>/pyright-<pid>-<random>; a pyright that is killed leaves it. */
function pyrightTemporaryFolders(pid: number): string[] {
  const folder = tmpdir();
  const prefix = `pyright-${pid}-`;
  try {
    return readdirSync(folder)
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}
