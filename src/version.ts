// Keel's version: read from its package.json (the one copy, which npm publishes), once, when asked.
import { readFileSync } from "node:fs";

let version: string | undefined;

export function keelVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  return version;
}
