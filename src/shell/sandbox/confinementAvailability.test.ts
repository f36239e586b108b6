import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CONFINEMENT_INSTALL_HINT,
  confinementAvailability,
  findOnPath,
  unconfinedModeNotice,
} from "./confinementAvailability.ts";

const empty = mkdtempSync(join(tmpdir(), "keel-no-bwrap-"));
mkdirSync(join(empty, "bin"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe("confinementAvailability", () => {
  it("is unavailable, saying how to install bubblewrap, under a PATH without bwrap", () => {
    const answer = confinementAvailability({ PATH: join(empty, "bin") }, "linux");
    expect(answer.available).toBe(false);
    expect(!answer.available && answer.reason).toContain(CONFINEMENT_INSTALL_HINT);
  });

  it("tells a person entering bypass or acceptEdits mode what still asks and how to get the sandbox", () => {
    const reason =
      "bubblewrap (bwrap) is not on PATH; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)";
    expect(unconfinedModeNotice("bypassPermissions", reason)).toMatch(
      /in bypassPermissions mode .* still ask/,
    );
    expect(unconfinedModeNotice("acceptEdits", reason)).toContain("apt-get install bubblewrap");
    expect(unconfinedModeNotice("default", reason)).toBeUndefined();
    expect(unconfinedModeNotice("bypassPermissions", "platform darwin")).toContain(CONFINEMENT_INSTALL_HINT);
  });

  it("is unavailable on another operating system", () => {
    const answer = confinementAvailability({ PATH: process.env.PATH }, "darwin");
    expect(answer.available).toBe(false);
    expect(!answer.available && answer.reason).toMatch(/Linux only/);
  });

  it.skipIf(process.platform !== "linux" || !findOnPath("bwrap", process.env.PATH))(
    "is available where bubblewrap can make its namespaces, and the answer is kept",
    () => {
      const first = confinementAvailability({ PATH: process.env.PATH });
      expect(first).toMatchObject({ available: true });
      expect(confinementAvailability({ PATH: process.env.PATH })).toBe(first);
    },
  );
});
