import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Keel processes the tests start decide in their own process; the decision server's own tests
    // turn it on (src/cli/decisionServer/).
    env: { KEEL_DECISION_SERVER: "off" },
  },
});
