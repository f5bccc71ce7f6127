// A task's failure reason in the page's language. The gateway writes reasons in one vocabulary (the
// interface's "Task failure"): a category, then after ": " the provider's code and its documented
// meaning. The category is translated; the details are codes and stay as they are.
import { t } from './i18n.js';

const CATEGORIES = [
  ['content moderation failed', 'failure.moderation'],
  ['generation failed', 'failure.generation'],
  ['upstream timeout', 'failure.timeout'],
  ['cancelled by the client', 'failure.cancelled'],
];

export function failureText(reason) {
  if (!reason) return reason;
  const found = CATEGORIES.find(([category]) => reason.toLowerCase().startsWith(category));
  return found ? `${t(found[1])}${reason.slice(found[0].length)}` : reason;
}
