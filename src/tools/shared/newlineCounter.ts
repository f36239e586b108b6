// Counting newline bytes at memory speed. Node has no native "count this byte" call: an indexOf loop
// costs a native call per line, which dominates skipping millions of lines. This 16-byte SIMD loop,
// written directly as WebAssembly, counts a chunk in one call; the file is read straight into its memory.
//
// The module, in text form:
//   (module
//     (memory (export "mem") 1)
//     (func (export "count") (param $p i32) (param $end i32) (result i32)   ;; $end - $p: a multiple of 64
//       (local $n i32) (local $nl v128)
//       (local.set $nl (v128.const i8x16 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10))
//       (block (br_if 0 (i32.ge_u (local.get $p) (local.get $end)))
//         (loop
//           ;; four times, at offsets 0, 16, 32, 48:
//           ;;   n += popcnt(i8x16.bitmask(i8x16.eq(v128.load offset=k (local.get $p), $nl)))
//           (local.set $p (i32.add (local.get $p) (i32.const 64)))
//           (br_if 0 (i32.lt_u (local.get $p) (local.get $end)))))
//       (local.get $n)))

const COUNT_BLOCK = (offset: number) => [
  0x20,
  0x00,
  0xfd,
  0x00,
  0x00,
  offset,
  0x20,
  0x03,
  0xfd,
  0x23,
  0xfd,
  0x64,
  0x69,
  0x6a,
];

const BODY = [
  ...[0x02, 0x01, 0x7f, 0x01, 0x7b], // locals: $n i32, $nl v128
  ...[0xfd, 0x0c, ...new Array<number>(16).fill(0x0a), 0x21, 0x03], // $nl = splat '\n'
  ...[0x02, 0x40, 0x20, 0x00, 0x20, 0x01, 0x4f, 0x0d, 0x00], // block; br_if p >= end
  ...[0x03, 0x40, 0x20, 0x02], // loop; push $n
  ...COUNT_BLOCK(0x00),
  ...COUNT_BLOCK(0x10),
  ...COUNT_BLOCK(0x20),
  ...COUNT_BLOCK(0x30),
  ...[0x21, 0x02], // $n = sum
  ...[0x20, 0x00, 0x41, 0xc0, 0x00, 0x6a, 0x22, 0x00], // p += 64
  ...[0x20, 0x01, 0x49, 0x0d, 0x00, 0x0b, 0x0b], // br_if p < end; end loop; end block
  ...[0x20, 0x02, 0x0b], // return $n
];

const MODULE_BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version
  ...[0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f], // type: (i32, i32) -> i32
  ...[0x03, 0x02, 0x01, 0x00], // one function of that type
  ...[0x05, 0x03, 0x01, 0x00, 0x01], // one memory, at least 1 page
  ...[0x07, 0x0f, 0x02, 0x05, ...Buffer.from("count"), 0x00, 0x00, 0x03, ...Buffer.from("mem"), 0x02, 0x00],
  ...[0x0a, BODY.length + 2, 0x01, BODY.length, ...BODY], // code (both sizes fit one LEB128 byte)
]);

/** The slice of the WebAssembly API used here (the project's type libraries do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

let compiled: object | null | undefined;

function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
      compiled = wasm ? new wasm.Module(MODULE_BYTES) : null;
    } catch {
      compiled = null; // No SIMD here: the indexOf fallback below is used.
    }
  }
  return compiled;
}

/** A chunk buffer to read into, and a count of newline bytes in its first `length` bytes. */
export interface NewlineCounter {
  readonly buffer: Buffer;
  count(length: number): number;
  readonly simd: boolean;
}

function countWithIndexOf(buffer: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = buffer.indexOf(10, from); i !== -1 && i < to; i = buffer.indexOf(10, i + 1)) count++;
  return count;
}

/** One counter per reader (its memory is the read buffer, so concurrent reads need their own). */
export function createNewlineCounter(
  chunkSize: number,
  options: { forceFallback?: boolean } = {},
): NewlineCounter {
  const module = options.forceFallback ? null : simdModule();
  if (!module) {
    const buffer = Buffer.allocUnsafe(chunkSize);
    return { buffer, simd: false, count: (length) => countWithIndexOf(buffer, 0, length) };
  }
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const instance = new wasm.Instance(module);
  const memory = instance.exports.mem as WasmMemory;
  const count = instance.exports.count as (p: number, end: number) => number;
  const pages = Math.ceil(chunkSize / 65536);
  if (pages > 1) memory.grow(pages - 1);
  const buffer = Buffer.from(memory.buffer, 0, chunkSize);
  return {
    buffer,
    simd: true,
    count(length) {
      const whole = length & ~63;
      return count(0, whole) + countWithIndexOf(buffer, whole, length);
    },
  };
}
