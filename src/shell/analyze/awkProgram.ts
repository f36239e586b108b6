// awk programs are code (system(), pipes, redirection, getline). Only trivially safe print programs
// such as `{print $1}` or `NR>1 {print $2, $NF}` are accepted as read-only.

const REGEX = String.raw`/(?:[^/\\\n]|\\.)*/`;
const FIELD = String.raw`\$(?:\d+|NF)`;
const ITEM = String.raw`(?:${FIELD}|NF|NR|FNR|"[^"\\\n$]*")`;
const PATTERN = [
  REGEX,
  String.raw`!\s*${REGEX}`,
  String.raw`F?NR\s*(?:==|!=|>=|<=|>|<)\s*\d+`,
  String.raw`NF(?:\s*(?:==|!=|>=|<=|>|<)\s*\d+)?`,
  String.raw`${FIELD}\s*(?:==|!=)\s*"[^"\\\n$]*"`,
  String.raw`${FIELD}\s*!?~\s*${REGEX}`,
].join("|");
const ACTION = String.raw`\{\s*(?:print(?:\s+${ITEM}(?:\s*,?\s*${ITEM})*)?\s*;?)?\s*\}`;
const SAFE_PROGRAM = new RegExp(String.raw`^\s*(?:(?:${PATTERN})\s*)?(?:${ACTION})?\s*$`);

/** True for a program that only prints fields of matching lines. */
export function isTrivialAwkProgram(program: string): boolean {
  if (program.trim() === "") return false;
  return SAFE_PROGRAM.test(program);
}
