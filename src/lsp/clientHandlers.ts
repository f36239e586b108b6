// What Keel answers when a language server asks the client something. Keel is a read-only client:
// it never applies a server's workspace edit, and shows no UI on a server's behalf.

import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type {
  ConfigurationParams,
  PublishDiagnosticsParams,
  RegistrationParams,
} from "vscode-languageserver-protocol";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";

export interface ClientSide {
  root: string;
  /** The server's settings, answered section by section to workspace/configuration. */
  settings: unknown;
  onRegistration(method: string): void;
  onDiagnostics(params: PublishDiagnosticsParams): void;
}

/** `settings` at a dotted section ("python.analysis"), or null when absent. */
export function settingsSection(settings: unknown, section: string | undefined): unknown {
  if (section === undefined || section === "") return settings ?? null;
  let value: unknown = settings;
  for (const key of section.split(".")) {
    if (value === null || typeof value !== "object" || !(key in value)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

const ANSWERED_WITH_NULL = [
  "window/workDoneProgress/create",
  "window/showMessageRequest",
  "window/showDocument",
  "client/unregisterCapability",
  "workspace/semanticTokens/refresh",
  "workspace/inlayHint/refresh",
  "workspace/inlineValue/refresh",
  "workspace/codeLens/refresh",
  "workspace/diagnostic/refresh",
  "workspace/foldingRange/refresh",
];

const IGNORED_NOTIFICATIONS = [
  "window/logMessage",
  "window/showMessage",
  "telemetry/event",
  "$/progress",
  "$/logTrace",
];

export function answerServerRequests(connection: ProtocolConnection, client: ClientSide): void {
  connection.onRequest("workspace/configuration", (params: ConfigurationParams) =>
    params.items.map((item) => settingsSection(client.settings, item.section)),
  );
  connection.onRequest("workspace/workspaceFolders", () => [
    { uri: pathToFileURL(client.root).href, name: basename(client.root) },
  ]);
  connection.onRequest("client/registerCapability", (params: RegistrationParams) => {
    for (const registration of params.registrations) client.onRegistration(registration.method);
    return null;
  });
  connection.onRequest("workspace/applyEdit", () => ({
    applied: false,
    failureReason: "Keel's language server client is read-only.",
  }));
  for (const method of ANSWERED_WITH_NULL) connection.onRequest(method, () => null);
  connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) =>
    client.onDiagnostics(params),
  );
  for (const method of IGNORED_NOTIFICATIONS) connection.onNotification(method, () => {});
}
