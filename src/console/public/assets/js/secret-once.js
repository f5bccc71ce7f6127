// A secret shown once (an API key, a webhook signing secret): a read-only field with a copy button; dismissing it forgets it.
import { h, render as fill } from './dom.js';
import { toast } from './ui.js';

/** `what` names the secret ("API key"), `title` heads the card, `id` is the field's id. */
export function showSecretOnce(container, { title, what, value, id }) {
  const helpId = `${id}-help`;
  const input = h('input', { type: 'text', readonly: true, value, id, 'aria-describedby': helpId });
  const copy = h(
    'button',
    {
      type: 'button',
      onClick: async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          input.select();
          document.execCommand('copy');
        }
        copy.textContent = 'Copied';
        toast(`${what} copied to the clipboard.`);
      },
    },
    'Copy',
  );
  fill(
    container,
    h(
      'div',
      { class: 'card secret-once', role: 'region', 'aria-label': `Your new ${what}` },
      h('h2', { style: 'margin-top:0' }, title),
      h('p', { id: helpId }, 'Copy it now: it will not be shown again.'),
      h('div', { class: 'field' }, h('label', { for: id }, what), input),
      h('div', { class: 'actions', style: 'margin-top:0.5rem' }, copy, h('button', { type: 'button', class: 'secondary', onClick: () => fill(container) }, 'Done')),
    ),
  );
  input.focus();
  input.select();
}
