// node:crypto loaded on first use, not at start: a process that only decides or runs one call
// (`keel hook`, `keel check`, `keel tool`) would otherwise spend ~6-10 ms loading it. (The global
// `crypto` is no cheaper: it loads Web Crypto on first use.)
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);
const { closeSync, openSync, readSync } = requireBuiltin("node:fs") as typeof import("node:fs");

function nodeCrypto(): typeof import("node:crypto") {
  return requireBuiltin("node:crypto") as typeof import("node:crypto");
}

export function createSha256(): import("node:crypto").Hash {
  return nodeCrypto().createHash("sha256");
}

/**
 * Random bytes from the kernel's source (/dev/urandom, what node:crypto draws from too) when it can be
 * read, else from node:crypto: one short read instead of loading the module.
 */
export function randomBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      let filled = 0;
      while (filled < size) {
        const read = readSync(fd, bytes, filled, size - filled, null);
        if (read <= 0) throw new Error("short read");
        filled += read;
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    return nodeCrypto().randomBytes(size);
  }
}

/** A version 4 UUID (RFC 9562). */
export function randomUUID(): string {
  const bytes = randomBytes(16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
