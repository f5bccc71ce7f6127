// Admin: import a catalog file (as the export gives it). First a dry run (POST /api/admin/models/import?dry_run=true)
// shows what it would add, change, leave as it is and keep of the operator's own changes; only a confirm applies it.
import { api, ApiError } from '../api.js';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form.js';
import { Button, Dialog, Field, toast } from '../components/ui.js';
import { num } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';

/** What a dry run answers, in the order it is shown; each group's tone. */
const GROUPS = [
  ['added', 'success', 'plus'],
  ['changed', 'warning', 'pencil'],
  ['kept_operator_changes', 'info', 'shield'],
  ['unchanged', 'neutral', 'check'],
];

export function ModelImport({ onClose, onApplied }) {
  const [text, setText] = useState('');
  const [diff, setDiff] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const file = () => {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw Object.assign(new ApiError(400, t('models.importNotJson', { reason: e.message }), null), { notJson: true });
    }
  };
  const send = async (dryRun) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api('/api/admin/models/import', { method: 'POST', query: dryRun ? { dry_run: 'true' } : {}, body: file() });
      if (dryRun) setDiff(answer);
      else {
        toast(t('models.imported', { added: num(answer.added.length), changed: num(answer.changed.length) }));
        onApplied();
        onClose();
      }
    } catch (e) {
      setError(e);
      if (!dryRun) setDiff(null);
    } finally {
      setBusy(false);
    }
  };
  const pick = async (event) => {
    const chosen = event.currentTarget.files?.[0];
    if (!chosen) return;
    setText(await chosen.text());
    setDiff(null);
    setError(null);
  };
  const changes = diff ? diff.added.length + diff.changed.length : 0;

  return html`<${Dialog} wide title=${t('models.importTitle')} onClose=${onClose}>
    <div class="model-import stack">
      <p class="muted">${t('models.importIntro')}</p>
      <${Field} label=${t('models.importFile')} name="upload" type="file" accept="application/json,.json" onChange=${pick} />
      <${Field} as="textarea" label=${t('models.importText')} name="file" rows="8" class="mono-field" value=${text} spellcheck="false"
        placeholder='{"version": 1, "models": [ … ]}' aria-invalid=${error?.notJson ? 'true' : undefined}
        onInput=${(e) => {
          setText(e.target.value);
          setDiff(null);
        }} />
      ${
        diff
          ? html`<section class="import-diff" aria-live="polite" aria-label=${t('models.importDiff')}>
        <h3>${t('models.importDiff')}</h3>
        ${changes === 0 ? html`<p class="notice info">${t('models.importNothing')}</p>` : null}
        <dl class="diff-groups">
          ${GROUPS.map(
            ([group, tone, icon]) => html`<div class=${`diff-group tone-${tone}`} data-group=${group}>
            <dt><${Icon} name=${icon} size=${16} />${t(`models.diff.${group}`)} <span class="diff-count">${num(diff[group].length)}</span></dt>
            <dd>${diff[group].length ? html`<span class="chips">${diff[group].map((id) => html`<code class="chip">${id}</code>`)}</span>` : html`<span class="muted">${t('models.diff.none')}</span>`}</dd>
          </div>`,
          )}
        </dl>
      </section>`
          : null
      }
      <div class="form-foot">
        <${FormError} error=${error} />
        <div class="actions">
        ${
          diff
            ? html`<${Button} icon="check" disabled=${busy || changes === 0} onClick=${() => send(false)}>${t('models.importApply', { n: changes })}<//>`
            : html`<${Button} icon="eye" disabled=${busy || !text.trim()} onClick=${() => send(true)}>${t('models.importCheck')}<//>`
        }
        <${Button} kind="secondary" onClick=${onClose}>${t('common.cancel')}<//>
        </div>
      </div>
    </div>
  <//>`;
}
