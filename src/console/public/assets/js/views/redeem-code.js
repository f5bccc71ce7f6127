// The customer redeems a code (POST /console/api/redeem): its quota is added once, then the overview reloads.
import { api } from '../api.js';
import { useSubmit } from '../components/form.js';
import { Button, Card, Field, toast } from '../components/ui.js';
import { quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';

export function RedeemCode({ onRedeemed }) {
  const redeem = useSubmit(async (values, form) => {
    const done = await api('/console/api/redeem', { method: 'POST', body: { code: values.code } });
    form.reset();
    toast(t('redeem.done', { added: quota(done.quota_added), balance: quota(done.quota) }));
    onRedeemed?.();
  });
  return html`<${Card} title=${t('redeem.title')} id="redeem-card">
    <form id="redeem-form" class="stack" aria-label=${t('redeem.title')} onSubmit=${redeem.onSubmit}>
      <${Field} label=${t('redeem.code')} name="code" required maxlength="64" autocomplete="off" spellcheck="false" placeholder="XXXX-XXXX-XXXX-XXXX-XXXX" help=${t('redeem.intro')} />
      <div><${Button} type="submit" icon="gift" disabled=${redeem.busy}>${t('redeem.button')}<//></div>
    </form>
  <//>`;
}
