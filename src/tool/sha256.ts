// sha256 without loading node:crypto at start: it loads with the first hash (~10 ms of a process that
// only decides a call, like `keel hook`, would otherwise go to it).
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);

export function createSha256(): import("node:crypto").Hash {
  return (requireBuiltin("node:crypto") as typeof import("node:crypto")).createHash("sha256");
}
