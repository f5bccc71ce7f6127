/**
 * How a task ends by the clock, as its prompt's markers say: `[simulate:moderation]` wins over
 * `[simulate:fail]`; null when it carries neither (the task ends with a video).
 */
export function markedEnd<M, F>(prompt: string, ends: { moderation: M; fail: F }): M | F | null {
  if (prompt.includes('[simulate:moderation]')) return ends.moderation;
  if (prompt.includes('[simulate:fail]')) return ends.fail;
  return null;
}
