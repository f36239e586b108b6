// node:crypto loaded on first use, not at start: a process that only decides a call (`keel hook`,
// `keel check`) would otherwise spend ~10 ms loading it. (The global `crypto` is no cheaper: it loads
// Web Crypto on first use.)
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);

function nodeCrypto(): typeof import("node:crypto") {
  return requireBuiltin("node:crypto") as typeof import("node:crypto");
}

export function createSha256(): import("node:crypto").Hash {
  return nodeCrypto().createHash("sha256");
}

export function randomUUID(): string {
  return nodeCrypto().randomUUID();
}
