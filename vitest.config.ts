import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    // Temp folders a test file made outside its tests are removed when it ends (tool/testing/tempFolder.ts).
    setupFiles: ["src/testing/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Most test time is waiting on child processes (Keel, git, servers), not computing: on a 2-core
    // machine vitest's default (cores - 1 = one file at a time) leaves the CPU idle half the time.
    maxWorkers: 3,
    // Keel processes the tests start decide in their own process; the decision server's own tests
    // turn it on (src/cli/decisionServer/).
    env: { KEEL_DECISION_SERVER: "off" },
  },
});
