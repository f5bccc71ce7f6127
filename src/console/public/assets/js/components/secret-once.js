// A secret shown once (an API key, a webhook signing secret): read-only, with a copy button; Done forgets it.
import { html, useEffect, useRef } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { Icon } from './icon.js';
import { Button, CopyButton, toast } from './ui.js';

/** `multiline`: several secrets, one per line (redemption codes), in a text area. */
export function SecretOnce({ title, what, value, id, onDone, multiline = false }) {
  const input = useRef(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [value]);
  return html`<section class="panel secret-once" aria-labelledby=${`${id}-title`}>
    <h2 id=${`${id}-title`}><${Icon} name="circle-check" /> ${title}</h2>
    <p id=${`${id}-help`}>${t('secret.once')}</p>
    <div class="field"><label for=${id}>${what}</label>
      <div class="secret-row">
        ${
          multiline
            ? html`<textarea ref=${input} id=${id} class="secret-value" readonly rows=${Math.min(10, value.split('\n').length)} aria-describedby=${`${id}-help`}>${value}</textarea>`
            : html`<input ref=${input} id=${id} class="secret-value" type="text" readonly value=${value} aria-describedby=${`${id}-help`} />`
        }
        <${CopyButton} value=${value} kind="primary" small=${false} withText label=${t('common.copy')} onCopied=${() => toast(t('secret.copied', { what }))} />
      </div>
    </div>
    <div class="actions"><${Button} kind="secondary" onClick=${onDone}>${t('secret.done')}<//></div>
  </section>`;
}
