// Allow rules approve a command, not new options for it: a prefix rule never covers an option that
// runs code or names an output, however it is spelled. Must and must-not rows, each checked on the
// matcher and on the whole decision (default mode) through the Bash tool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBashParser } from "./grammar/parse.ts";
import { allowRuleMatches } from "./ruleMatcher.ts";
import { decideBash } from "./testing/decide.ts";
import { createTestProject, type TestProject } from "./testing/project.ts";

let project: TestProject;

beforeAll(async () => {
  await initBashParser();
  project = createTestProject();
});
afterAll(() => project.cleanup());

async function decide(command: string, rule: string) {
  return decideBash(project.root, command, { allow: [`Bash(${rule})`] });
}

describe("a prefix rule does not cover options that run code or name outputs", () => {
  it.each([
    ["npm test --script-shell=/tmp/x", "npm test:*"],
    ["npm test --script-sh=/tmp/x", "npm test:*"],
    ["npm test --script_shell /tmp/x", "npm test:*"],
    ["npm test --prefix=/tmp/x", "npm test:*"],
    ["npm test -C /tmp/x", "npm test:*"],
    ["npm test --node-options=--require=/tmp/x.js", "npm test:*"],
    ["npm test --userconfig=/tmp/npmrc", "npm test:*"],
    ["npm test --some-new-key=/tmp/x", "npm test:*"],
    ["npm_config_script_shell=/tmp/x npm test", "npm test:*"],
    ["Npm_Config_Script_Shell=/tmp/x npm test", "npm test:*"],
    ["env npm_config_script_shell=/tmp/x npm test", "npm test:*"],
    ["timeout 60 npm test --script-shell=/tmp/x", "npm test:*"],
    ["npm run build -- --config=/tmp/x.js", "npm run build:*"],
    ["sort --outp=/tmp/x src/app.ts", "sort:*"],
    ["sort --o=/tmp/x src/app.ts", "sort:*"],
    ["sort -mo/tmp/x src/app.ts", "sort:*"],
    ["sort -o /tmp/x src/app.ts", "sort:*"],
    ["sort --output /tmp/x src/app.ts", "sort:*"],
    ["sort -rnmo x src/app.ts", "sort:*"],
    ["sort --compress-prog=sh src/app.ts", "sort:*"],
    ["curl -w '%output{/tmp/x}' https://example.com", "curl:*"],
    ["curl -sw @fmt https://example.com", "curl:*"],
    ["curl -K /tmp/cfg https://example.com", "curl:*"],
    ["curl --config /tmp/cfg https://example.com", "curl:*"],
    ["curl --conf=/tmp/cfg https://example.com", "curl:*"],
    ["curl -sSLo x https://example.com", "curl:*"],
    ["curl -O https://example.com/x", "curl:*"],
    ["wget -e robots=off https://example.com", "wget:*"],
    ["make SHELL=/tmp/x test", "make:*"],
    ["make -f /tmp/x.mk", "make:*"],
    ["git log --outp=/tmp/x", "git log:*"],
    ["tsc --outDir /tmp/x", "tsc:*"],
    ["npx tsc --outDir /tmp/x", "npx tsc:*"],
    ["pytest -p evil", "pytest:*"],
    ["go test -toolexec=/tmp/x ./...", "go test:*"],
    ["mytool --config=/tmp/x", "mytool:*"],
  ])("%j is not covered by Bash(%s)", async (command, rule) => {
    expect(allowRuleMatches(command, rule, [rule])).toBe(false);
    expect(await decide(command, rule)).not.toBe("allow");
  });

  it.each([
    ["npm test", "npm test:*"],
    ["npm test --silent", "npm test:*"],
    ["npm test -- --watch", "npm test:*"],
    ["npm run build --if-present", "npm run build:*"],
    ["sort -rn src/app.ts", "sort:*"],
    ["curl -sSL https://example.com", "curl:*"],
    ["curl -w '%{http_code}' https://example.com", "curl:*"],
    ["make -j4 test", "make:*"],
    ["git log --oneline -n 5", "git log:*"],
    ["tsc --noEmit", "tsc:*"],
    ["pytest -k name -x", "pytest:*"],
    ["go test -run TestX ./...", "go test:*"],
    ["mytool --verbose", "mytool:*"],
  ])("%j is covered by Bash(%s)", async (command, rule) => {
    expect(allowRuleMatches(command, rule, [rule])).toBe(true);
    expect(await decide(command, rule)).toBe("allow");
  });
});
