// A small real language server (a process speaking LSP over stdio) that misbehaves on request, for the
// crash, hang and flood tests. Usage: node fakeServer.mjs --mode ok|crash|crash-once|hang|flood [--marker FILE]
//   ok          answers every request
//   crash       exits with code 3 on the first textDocument request
//   crash-once  crashes like "crash" unless FILE exists (it creates FILE first): the restarted process answers
//   hang        never answers textDocument requests
//   flood       answers textDocument requests with an endless stream of log notifications
import { existsSync, writeFileSync } from "node:fs";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const mode = option("--mode") ?? "ok";
const marker = option("--marker");

const connection = createProtocolConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);

function misbehave() {
  if (mode === "crash" || (mode === "crash-once" && marker && !existsSync(marker))) {
    if (marker) writeFileSync(marker, "crashed once\n");
    process.stderr.write("fake server: crashing as asked\n");
    process.exit(3);
  }
  if (mode === "hang") return new Promise(() => {});
  if (mode === "flood") {
    const message = "x".repeat(1024 * 1024);
    const flood = () => {
      void connection.sendNotification("window/logMessage", { type: 4, message });
      setImmediate(flood);
    };
    flood();
    return new Promise(() => {});
  }
  return undefined;
}

connection.onRequest("initialize", () => ({
  capabilities: {
    textDocumentSync: 1,
    definitionProvider: true,
    referencesProvider: true,
    hoverProvider: true,
  },
  serverInfo: { name: "fake", version: "1" },
}));
connection.onRequest("textDocument/definition", (params) => {
  return (
    misbehave() ?? [
      {
        uri: params.textDocument.uri,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
      },
    ]
  );
});
connection.onRequest("textDocument/hover", (params) => {
  return (
    misbehave() ?? {
      contents: { kind: "plaintext", value: `fake hover (pid ${process.pid}) at ${params.position.line}` },
    }
  );
});
connection.onRequest("shutdown", () => null);
connection.onNotification("exit", () => process.exit(0));
connection.onNotification(() => {});
connection.onClose(() => process.exit(0));
connection.listen();
