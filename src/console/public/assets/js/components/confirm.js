// "Are you sure?" as a modal: const [dialog, confirm] = useConfirm(); ... if (await confirm(question, label)) ...
import { html, useRef, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { Button, Dialog } from './ui.js';

/** @returns {[unknown, (question: string, confirmLabel: string) => Promise<boolean>]} */
export function useConfirm() {
  const [pending, setPending] = useState(null);
  const answer = useRef(null);
  const confirm = (question, confirmLabel) =>
    new Promise((resolve) => {
      answer.current = resolve;
      setPending({ question, confirmLabel });
    });
  const finish = (value) => {
    answer.current?.(value);
    answer.current = null;
    setPending(null);
  };
  const dialog = pending
    ? html`<${Dialog} title=${t('common.pleaseConfirm')} onClose=${() => finish(false)}
        footer=${html`<${Button} kind="secondary" onClick=${() => finish(false)}>${t('common.cancel')}<//><${Button} kind="danger" onClick=${() => finish(true)}>${pending.confirmLabel}<//>`}>
        <p>${pending.question}</p>
      <//>`
    : null;
  return [dialog, confirm];
}
