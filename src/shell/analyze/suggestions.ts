// The "always allow" rule offered with a prompt: as narrow as the command's own verb
// (`npm run test:*`, `git commit:*`), never a blanket Bash.
import type { RuleSuggestion } from "../../permissions/types.ts";
import type { CommandView } from "./commandView.ts";
import { isInterpreter } from "./programs.ts";
import { commandForAllowRules } from "./wrappers.ts";

/** Tools whose second word is a subcommand; the value is how many words name the action. */
const SUBCOMMAND_WORDS: Record<string, number> = {
  git: 2,
  npm: 2,
  pnpm: 2,
  yarn: 2,
  bun: 2,
  cargo: 2,
  go: 2,
  docker: 2,
  podman: 2,
  kubectl: 2,
  helm: 2,
  pip: 2,
  pip3: 2,
  poetry: 2,
  uv: 2,
  dotnet: 2,
  gradle: 2,
  brew: 2,
  apt: 2,
  "apt-get": 2,
  gh: 2,
  terraform: 2,
  deno: 2,
  rustup: 2,
  composer: 2,
  bundle: 2,
  rails: 2,
  mix: 2,
  swift: 2,
  systemctl: 2,
  make: 2,
  npx: 2,
  pnpx: 2,
  bunx: 2,
  uvx: 2,
  pipx: 2,
  rake: 2,
  mvn: 2,
  aws: 3,
  gcloud: 3,
  az: 3,
};
const RUN_VERBS = new Set(["run", "exec", "x", "dlx", "compose", "workspace"]);

function isPlainWord(word: string): boolean {
  return word !== "" && !/[\s*"'\\()]/.test(word) && !word.startsWith("-");
}

/** The specifier part of a rule for one command, e.g. "npm run test:*" or "pytest:*". */
export function suggestSpecifier(view: CommandView): string | undefined {
  const argv = commandForAllowRules(view.written.simple.argv, view.written.simple.assignments);
  if (argv.length === 0) return undefined;
  const assignments = argv.filter((word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const rest = argv.slice(assignments.length);
  const name = rest[0];
  if (name === undefined || !isPlainWord(name)) return undefined;
  let count = SUBCOMMAND_WORDS[name] ?? (isInterpreter(name) ? 2 : 1);
  if (count >= 2 && RUN_VERBS.has(rest[1] ?? "")) count += 1;
  const words: string[] = [];
  for (const word of rest.slice(0, count)) {
    if (!isPlainWord(word)) break;
    words.push(word);
  }
  if (isInterpreter(name) && words.length < 2) return undefined;
  return `${[...assignments, ...words].join(" ")}:*`;
}

/** Up to three distinct rule suggestions for the parts that need approval. */
export function ruleSuggestions(views: readonly CommandView[]): {
  specifiers: string[];
  suggestions: RuleSuggestion[];
} {
  const specifiers = [
    ...new Set(
      views.map(suggestSpecifier).filter((specifier): specifier is string => specifier !== undefined),
    ),
  ].slice(0, 3);
  return {
    specifiers,
    suggestions: specifiers.map((specifier) => ({
      behavior: "allow",
      rule: `Bash(${specifier})`,
      destination: "local",
    })),
  };
}
