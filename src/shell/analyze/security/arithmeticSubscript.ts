// Builtins that take variable names evaluate array subscripts arithmetically, and a subscript such as
// a[$(cmd)] runs cmd; `let` and `declare -i` evaluate their values the same way.
import type { CommandCheck } from "./types.ts";

const NAME_TAKERS = new Set([
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "unset",
  "read",
  "printf",
  "mapfile",
  "readarray",
  "getopts",
  "wait",
  "test",
  "[",
  "shift",
]);

export const arithmeticSubscript: CommandCheck = {
  id: "arithmetic-subscript",
  stage: "command",
  description: "let, declare -i and variable names with [subscripts] are evaluated as arithmetic",
  run: (view) => {
    const [name, ...args] = view.argv;
    if (name === undefined) return undefined;
    if (name === "let") return "let evaluates arithmetic, and subscripts inside it can run commands";
    if (!NAME_TAKERS.has(name)) return undefined;
    if (
      ["declare", "typeset", "local", "export", "readonly"].includes(name) &&
      args.some((arg) => /^[-+][a-zA-Z]*i/.test(arg))
    )
      return `${name} -i evaluates values as arithmetic`;
    if (name === "test" || name === "[") {
      const v = args.indexOf("-v");
      return v !== -1 && (args[v + 1] ?? "").includes("[")
        ? `${name} -v evaluates an array subscript`
        : undefined;
    }
    const subscripted = args.find(
      (arg) => /^[A-Za-z_][A-Za-z0-9_]*\[/.test(arg) || (arg.startsWith("-v") && arg.includes("[")),
    );
    return subscripted ? `${name} evaluates the subscript in ${subscripted.slice(0, 40)}` : undefined;
  },
  examples: {
    trigger: [
      "let x=1",
      "declare -i x='a[$(id)]'",
      "printf -v 'a[$(id)]' x",
      "read 'a[$(id)]'",
      "unset 'a[$(id)]'",
      "test -v 'a[$(id)]'",
    ],
    pass: ["declare -x FOO=1", "test -f a", "read line", "printf '%s' x", "echo 'a[1]'"],
  },
};
