/** Names as the API documentation lists them: `a`, `b`, `c` (Markdown code). */
export function codeList(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(', ');
}
