import { statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinRelative, kthSmallest, MtimeCollector } from "./newestFirst.ts";
import { STAT_WORKERS, statOnWorker } from "./statPool.ts";
import { makeTempDir, removeDir, setMtimes, writeTree } from "./testing.ts";

let dir: string;

beforeAll(async () => {
  dir = await makeTempDir();
  const files: Record<string, string> = {};
  const mtimes: Record<string, number> = {};
  // 40 files: f00 is the oldest, f39 the newest; t1/t2 share an mtime (ties sort by path).
  for (let i = 0; i < 40; i++) {
    const name = `f${String(i).padStart(2, "0")}.txt`;
    files[name] = "x";
    mtimes[name] = 1_600_000_000 + i * 10;
  }
  files["t2.txt"] = "x";
  files["t1.txt"] = "x";
  files["é ü.txt"] = "x";
  mtimes["t2.txt"] = 1_700_000_000;
  mtimes["t1.txt"] = 1_700_000_000;
  mtimes["é ü.txt"] = 1_500_000_000;
  await writeTree(dir, files);
  await setMtimes(dir, mtimes);
});

afterAll(async () => {
  await removeDir(dir);
});

function nulList(paths: string[]): Buffer {
  return Buffer.from(paths.map((path) => `${path}\0`).join(""));
}

function collect(paths: string[], chunkSize: number): MtimeCollector {
  const collector = new MtimeCollector(dir);
  const data = nulList(paths);
  for (let start = 0; start < data.length; start += chunkSize)
    collector.push(data.subarray(start, start + chunkSize));
  collector.finish();
  return collector;
}

const allNames = () => [
  ...Array.from({ length: 40 }, (_, i) => `./f${String(i).padStart(2, "0")}.txt`),
  "./t2.txt",
  "./t1.txt",
  "./é ü.txt",
];

describe("MtimeCollector", () => {
  it("orders newest first, ties by path, whatever order rg printed", () => {
    const collector = collect(allNames().reverse(), 1 << 16);
    const page = collector.page(0, 4);
    expect(page.total).toBe(43);
    expect(page.paths).toEqual([`${dir}/t1.txt`, `${dir}/t2.txt`, `${dir}/f39.txt`, `${dir}/f38.txt`]);
  });

  it("gives the same order from the full sort and from the threshold cut", () => {
    const collector = collect(allNames(), 1 << 16);
    const all = collector.page(0, undefined).paths;
    expect(all).toHaveLength(43);
    expect(all.at(-1)).toBe(`${dir}/é ü.txt`);
    // A page short of the total takes the threshold cut; all of them the full sort. The cut after one
    // path falls between two files with the same mtime (t1, t2): the path decides.
    expect(collector.page(0, 1).paths).toEqual([`${dir}/t1.txt`]);
    expect(collector.page(0, 3).paths).toEqual(all.slice(0, 3));
    expect(collector.page(5, 3).paths).toEqual(all.slice(5, 8));
    expect(collector.page(0, 20).paths).toEqual(all.slice(0, 20));
    expect(collector.page(0, 42).paths).toEqual(all.slice(0, 42));
  });

  it("reassembles paths split across chunks, multi-byte characters included", () => {
    for (const chunkSize of [1, 2, 3, 7]) {
      const collector = collect(allNames(), chunkSize);
      expect(collector.count).toBe(43);
      expect(collector.page(0, undefined).paths).toContain(`${dir}/é ü.txt`);
    }
  });

  it("drops a final path without its NUL (output cut short, maybe mid-name)", () => {
    const collector = new MtimeCollector(dir);
    collector.push(Buffer.from("./f01.txt\0./f02.t"));
    collector.finish();
    expect(collector.page(0, undefined).paths).toEqual([`${dir}/f01.txt`]);
  });

  it("sorts files that vanished since they were listed last", () => {
    const collector = collect(["./gone.txt", "./f00.txt"], 1 << 16);
    expect(collector.page(0, undefined).paths).toEqual([`${dir}/f00.txt`, `${dir}/gone.txt`]);
  });

  it("returns an empty page past the end", () => {
    const collector = collect(allNames(), 1 << 16);
    expect(collector.page(100, 10)).toEqual({ paths: [], total: 43 });
    expect(collector.page(0, 0).paths).toEqual([]);
  });
});

describe("MtimeCollector in parallel mode", () => {
  it("orders as the serial collector does, batches stat'ed on workers, a vanished file last", async () => {
    const names = [...allNames(), "./gone.txt"].reverse();
    const serial = collect(names, 1 << 16).page(0, undefined);
    const parallel = new MtimeCollector(dir, undefined, { parallel: true, parallelFrom: 3, batchSize: 5 });
    parallel.push(nulList(names));
    parallel.finish();
    if (STAT_WORKERS > 0) expect(() => parallel.page(0, undefined)).toThrow(/settle/);
    await parallel.settle();
    expect(parallel.page(0, undefined)).toEqual(serial);
    expect(serial.paths.at(-1)).toBe(`${dir}/gone.txt`);
    expect(parallel.page(0, 3).paths).toEqual(serial.paths.slice(0, 3));
  });

  it("has a worker read mtimes (0 for a missing file)", async () => {
    const paths = [`${dir}/f03.txt`, `${dir}/missing.txt`, `${dir}/é ü.txt`];
    const mtimes = await statOnWorker(0, paths);
    expect([...mtimes]).toEqual([statSync(paths[0]!).mtimeMs, 0, statSync(paths[2]!).mtimeMs]);
  });
});

describe("kthSmallest", () => {
  it("agrees with a full sort for every k, duplicates and sorted input included", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const inputs = [
      Array.from({ length: 200 }, () => Math.floor(random() * 1000)),
      Array.from({ length: 50 }, () => Math.floor(random() * 3)),
      Array.from({ length: 64 }, (_, i) => i),
      Array.from({ length: 64 }, (_, i) => 64 - i),
      [5],
    ];
    for (const input of inputs) {
      const sorted = Float64Array.from(input).sort();
      for (let k = 0; k < input.length; k++) expect(kthSmallest(Float64Array.from(input), k)).toBe(sorted[k]);
    }
  });
});

describe("joinRelative", () => {
  it.each([
    ["/a", "./b/c", "/a/b/c"],
    ["/a", "b", "/a/b"],
    ["/", "./b", "/b"],
  ])("%s + %s = %s", (root, rel, expected) => {
    expect(joinRelative(root, rel)).toBe(expected);
  });
});
