/**
 * Family B prompt limit: 5000 non-Chinese or 2500 Chinese characters. A mixed prompt is measured
 * in units against a budget of 5000: a Chinese character (Han ideographs, CJK punctuation and
 * full-width forms) costs 2 units, any other character 1. So an all-Chinese prompt keeps 2500
 * characters, an all-Latin one 5000, and a mix never exceeds either limit in effect.
 * Characters are code points, so a surrogate pair (emoji) is never split.
 */
export const BETA_PROMPT_BUDGET = 5000;

const CHINESE = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

export const promptUnits = (char: string): number => (CHINESE.test(char) ? 2 : 1);

/** `budget`: the model's `prompt_max_length` (units as above), the interface's 5000 unless its entry says otherwise. */
export function truncateBetaPrompt(prompt: string, budget = BETA_PROMPT_BUDGET): { prompt: string; truncated: boolean } {
  let used = 0;
  let end = 0;
  for (const char of prompt) {
    const cost = promptUnits(char);
    if (used + cost > budget) return { prompt: prompt.slice(0, end), truncated: true };
    used += cost;
    end += char.length;
  }
  return { prompt, truncated: false };
}
