// What starting one language server takes, and the errors of language servers. A light module: the
// JSON-RPC library is loaded only when a server actually starts (languageServer.ts).
import { ToolError } from "../tool/errors.ts";

/** How to start one server for one workspace. */
export interface ServerLaunch {
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>>;
  initializationOptions?: unknown;
  /** Sent with workspace/didChangeConfiguration and answered to workspace/configuration. */
  settings?: unknown;
  /** What runs, for messages: "TypeScript 7.0.2 native language server (bundled with Keel)". */
  description: string;
  /** How to install the command, told when it cannot be started. */
  installHint: string;
  /**
   * What the server leaves behind when it is killed before it can clean up (given its process id):
   * removed once it has exited.
   */
  leftovers?: (pid: number) => string[];
}

/** Failures of language servers, as error codes the model and the pool can act on. */
export const LSP_ERROR = {
  /** No server is configured for the file's extension. */
  notConfigured: "lsp_not_configured",
  /** The server's command is not installed. */
  missing: "lsp_server_missing",
  /** The server did not start or did not finish its handshake. */
  startFailed: "lsp_start_failed",
  /** The process exited while in use. */
  crashed: "lsp_server_crashed",
  /** No answer in time: the server is taken as hung. */
  timeout: "timeout",
  /** It wrote more than a server ever needs to. */
  flood: "lsp_server_flood",
  /** It failed again after its one restart; it stays off for the session. */
  gaveUp: "lsp_server_unavailable",
  /** The server answered with an error. */
  requestFailed: "lsp_request_failed",
} as const;

export type LspErrorCode = (typeof LSP_ERROR)[keyof typeof LSP_ERROR];

export function lspError(code: LspErrorCode, message: string, cause?: unknown): ToolError {
  return new ToolError(code, message, cause === undefined ? undefined : { cause });
}
