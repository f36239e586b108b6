// The template cache with a stand-in wrap (what it hands out, when it wraps again, what it gives back
// to the runtime, which mount points it removes). Real bubblewrap runs in sandbox.test.ts.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  bwrapWords,
  forgetTemplates,
  SCRIPT_ENV,
  TEMPLATE_COMMAND,
  type TemplateSource,
  templatedCommand,
} from "./sandboxTemplates.ts";

let project: string;

beforeEach(() => {
  forgetTemplates();
  project = realpathSync(mkdtempSync(join(tmpdir(), "keel-templates-")));
});

afterEach(() => {
  forgetTemplates();
  rmSync(project, { recursive: true, force: true });
});

interface FakeSource extends TemplateSource {
  wraps: string[];
  releases: number;
}

/** A source whose wrap returns a bubblewrap line that mounts /dev/null over `<project>/.keel`. */
function fakeSource(key = "policy", options: { unreadable?: boolean; globRoot?: string } = {}): FakeSource {
  const source: FakeSource = {
    key,
    chains: [join(project, ".keel")],
    globRoots: options.globRoot ? [{ dir: options.globRoot, depth: 1 }] : [],
    wraps: [],
    releases: 0,
    wrap: async (command) => {
      source.wraps.push(command);
      const line = options.unreadable
        ? `/bin/sh -c 'exec 9<"$1" && shift && exec "$@"' srt-args /proc/self/fd/9 bwrap --args 9 -- bash -c x`
        : `bwrap --new-session --ro-bind / / --ro-bind /dev/null ${join(project, ".keel")} -- /usr/bin/bash -c 'x'`;
      return { argv: ["/bin/bash", "-c", line] };
    },
    releaseWrap: () => {
      source.releases++;
    },
  };
  return source;
}

/** What bubblewrap leaves on the host for an absent deny path: an empty file without write bits. */
function leaveMountPoint(path: string): void {
  writeFileSync(path, "");
  chmodSync(path, 0o444);
}

describe("sandbox templates", () => {
  it("wraps once and passes each script in the environment", async () => {
    const source = fakeSource();
    const first = await templatedCommand(source, "echo one");
    first.release();
    const second = await templatedCommand(source, "echo 'two'");
    second.release();
    expect(source.wraps).toEqual([TEMPLATE_COMMAND]);
    expect(second.argv).toEqual(first.argv);
    expect(first.env[SCRIPT_ENV]).toBe("echo one");
    expect(second.env[SCRIPT_ENV]).toBe("echo 'two'");
    expect(source.releases).toBe(0);
  });

  it("keeps a wrap per policy, a few at most, and gives back the oldest once it is idle", async () => {
    const first = fakeSource("policy-0");
    const running = await templatedCommand(first, "sleep 1");
    try {
      const others = [1, 2, 3].map((n) => fakeSource(`policy-${n}`));
      for (const source of others) (await templatedCommand(source, "true")).release();
      (await templatedCommand(first, "true")).release();
      expect(first.wraps).toHaveLength(1);
      // A fifth policy retires the oldest wrap, which is still running a command.
      (await templatedCommand(fakeSource("policy-4"), "true")).release();
      expect(first.releases).toBe(0);
    } finally {
      running.release();
    }
    expect(first.releases).toBe(1);
  });

  it("wraps again when what the wrap read has changed", async () => {
    const source = fakeSource();
    (await templatedCommand(source, "true")).release();
    mkdirSync(join(project, ".keel"));
    (await templatedCommand(source, "true")).release();
    expect(source.wraps).toHaveLength(2);
    expect(source.releases).toBe(1);
  });

  it("uses a wrap it cannot read back once (one wrap and one release per command)", async () => {
    const source = fakeSource("args-file", { unreadable: true });
    (await templatedCommand(source, "true")).release();
    (await templatedCommand(source, "true")).release();
    expect(source.wraps).toHaveLength(2);
    expect(source.releases).toBe(2);
  });

  it("shares one wrap between commands that start together", async () => {
    const source = fakeSource();
    const [a, b] = await Promise.all([templatedCommand(source, "a"), templatedCommand(source, "b")]);
    expect(source.wraps).toHaveLength(1);
    a.release();
    b.release();
  });

  it("removes mount points once no sandboxed command runs, and only what bubblewrap made", async () => {
    const source = fakeSource();
    const mountPoint = join(project, ".keel");
    const a = await templatedCommand(source, "a");
    const b = await templatedCommand(source, "b");
    leaveMountPoint(mountPoint);
    a.release();
    // b's sandbox still has its mount there: removing it would undo the deny inside b.
    expect(existsSync(mountPoint)).toBe(true);
    b.release();
    expect(existsSync(mountPoint)).toBe(false);

    // A file with content (someone's real file) stays.
    const c = await templatedCommand(source, "c");
    writeFileSync(mountPoint, "real");
    c.release();
    expect(existsSync(mountPoint)).toBe(true);
  });

  it("reuses the wrap while another command's mount point stands where it saw nothing", async () => {
    const source = fakeSource();
    (await templatedCommand(source, "warm")).release();
    const running = await templatedCommand(source, "long");
    leaveMountPoint(join(project, ".keel"));
    const next = await templatedCommand(source, "short");
    expect(source.wraps).toHaveLength(1);
    next.release();
    running.release();
  });

  it("after the runtime was reset, wraps anew and owes the old wrap nothing", async () => {
    const source = fakeSource();
    const running = await templatedCommand(source, "a");
    forgetTemplates();
    (await templatedCommand(source, "b")).release();
    running.release();
    expect(source.wraps).toHaveLength(2);
    expect(source.releases).toBe(0);
  });

  it("reads bubblewrap's words as the shell would, up to --", () => {
    expect(
      bwrapWords(`bwrap --setenv A 'x y' --setenv B 'it'"'"'s' --bind "/a b" /c -- /usr/bin/bash -c 'x'`),
    ).toEqual(["bwrap", "--setenv", "A", "x y", "--setenv", "B", "it's", "--bind", "/a b", "/c"]);
    expect(bwrapWords(`/bin/sh -c 'exec 9<"$1"' srt-args`)).toBeUndefined();
  });
});
