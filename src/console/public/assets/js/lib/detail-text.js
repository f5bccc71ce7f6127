// What a ledger row or a timeline entry says, in the page's language. The gateway sends its English
// `detail` (for the API) and, for the texts it writes itself, `detail_code` and `detail_params`; free
// text (an admin's adjustment, a provider's error) has no code and is shown as written.
import { failureText } from './failure-text.js';
import { compactDateTime, quota } from './format.js';
import { hasMessage, t } from './i18n.js';

function fromCode(prefix, code, params) {
  const key = `${prefix}.${code}`;
  return code && hasMessage(key) ? t(key, params ?? {}) : null;
}

/** A ledger row's detail. A price names its tier (audio, fast motion) in the page's language. */
export function ledgerDetail(log) {
  const params = { ...(log.detail_params ?? {}) };
  if (log.detail_code === 'price') {
    const tiers = [params.audio ? t('ledger.tier.audio') : null, params.fast_motion ? t('ledger.tier.fastMotion') : null].filter(Boolean);
    params.tier = tiers.length ? t('ledger.tier', { tiers: tiers.join(t('ledger.tier.separator')) }) : '';
  }
  if (params.reason !== undefined) params.reason = failureText(String(params.reason));
  // A key's refusal: its times and amounts in the page's language.
  for (const name of ['at', 'resets_at']) if (typeof params[name] === 'number') params[name] = compactDateTime(params[name]);
  for (const name of ['limit', 'left', 'cost', 'budget']) if (typeof params[name] === 'number') params[name] = quota(params[name]);
  if (params.period !== undefined && hasMessage(`keys.period.${params.period}`)) params.period = t(`keys.period.${params.period}`);
  return fromCode('ledger', log.detail_code, params) ?? log.detail ?? '';
}

/** A timeline entry's detail (a failure reason's category translated). */
export function timelineDetail(entry) {
  return fromCode('tl', entry.detail_code, entry.detail_params) ?? failureText(entry.detail);
}

/** A task's action (textGenerate, imageGenerate, ...) in the page's language, as sent when unknown. */
export function actionText(action) {
  return fromCode('action', action, {}) ?? action;
}
