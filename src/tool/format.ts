// Numbers for people and models. Number#toLocaleString would do, but its first call loads ICU's locale
// data (~30 ms), which the Bash prompt paid at every start of `keel mcp`.

/** 1234567 -> "1,234,567"; fractions and non-finite numbers as String() gives them. */
export function groupThousands(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole = "", fraction] = String(Math.abs(value)).split(".");
  if (whole.includes("e")) return String(value);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${value < 0 ? "-" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}
