// What the decision server loads before its first request: the answered commands, the tools they
// judge, and the Bash grammar (compiled, and its lexer run once), so no request pays for them.
import { JUDGED_TOOLS } from "../../guard/keelTools.ts";
import { initBashParser, withBashTree } from "../../shell/analyze/grammar/parse.ts";
import { catalogEntry } from "../../tools/catalog.ts";
import { keepLongLivedDefaults } from "../quickStart.ts";

export async function warmUpDecisions(): Promise<void> {
  keepLongLivedDefaults();
  await Promise.all([
    import("../commands/check.ts"),
    import("../commands/hook.ts"),
    import("../../guard/handle.ts"),
    import("../../guard/decide.ts"),
    import("../session.ts"),
  ]);
  for (const name of JUDGED_TOOLS) await catalogEntry(name)?.load();
  await initBashParser();
  withBashTree("git status && ls -la src | head -n 3 > /dev/null", () => undefined);
}
