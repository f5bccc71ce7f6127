// Customer: try a model in the browser with one of their API keys (so the key's limits, allowlist and
// balance apply, as to any client): the quote, the submit, its progress, the video, and the same
// request as curl. The key stays in this tab (sessionStorage) and goes nowhere but this gateway's API.
import { api } from '../api.js';
import { CopyButton, Button, Card, ErrorNote, Field, PageHeader, Progress } from '../components/ui.js';
import { usd } from '../components/usage-bits.js';
import { modeLabel } from '../lib/catalog-format.js';
import { num, quota } from '../lib/format.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

const KEY_STORAGE = 'playground.key';
const POLL_MS = 2000;

/** A call to the public API with the customer's key. */
const withKey = (key, path, body) => api(path, { method: body === undefined ? 'GET' : 'POST', body, bearer: key });

/** The durations a model takes, as select options: its list, or each whole second of its range. */
function durationOptions(model) {
  const d = model.durations;
  const list = Array.isArray(d) ? d : Array.from({ length: d.max - d.min + 1 }, (_, i) => d.min + i);
  return list.map((s) => [String(s), t('playground.seconds', { n: num(s) })]);
}

/** The request as the form says it: only what was chosen. */
function requestBody(model, values) {
  const body = { model: model.id, prompt: values.prompt };
  if (values.seconds) body.seconds = values.seconds;
  if (values.resolution) body.resolution = values.resolution;
  if (values.input_reference) body.input_reference = values.input_reference;
  return body;
}

const curlOf = (body) =>
  `curl -s ${location.origin}/v1/videos \\\n  -H "Authorization: Bearer $KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`;

export function Playground() {
  const models = useApi('/console/api/models/prices');
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY_STORAGE) ?? '');
  const [modelId, setModelId] = useState('');
  const [values, setValues] = useState({ prompt: '', seconds: '', resolution: '', input_reference: '' });
  const [quoted, setQuoted] = useState(null);
  const [task, setTask] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  const list = models.data?.data ?? [];
  const model = list.find((m) => m.id === modelId) ?? list[0];
  useEffect(() => () => clearTimeout(timer.current), []);

  const saveKey = (value) => {
    setKey(value);
    if (value) sessionStorage.setItem(KEY_STORAGE, value);
    else sessionStorage.removeItem(KEY_STORAGE);
  };
  const change = (name) => (event) => {
    setValues({ ...values, [name]: event.currentTarget.value.trim() });
    setQuoted(null);
  };
  const run = async (work) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const follow = (id) => {
    timer.current = setTimeout(async () => {
      try {
        const now = await withKey(key, `/v1/videos/${encodeURIComponent(id)}`);
        setTask(now);
        if (now.status !== 'completed' && now.status !== 'failed') follow(id);
      } catch (e) {
        setError(e);
      }
    }, POLL_MS);
  };
  const body = model ? requestBody(model, values) : null;
  const quote = () => run(async () => setQuoted(await withKey(key, '/v1/videos/quote', body)));
  const submit = (event) => {
    event.preventDefault();
    clearTimeout(timer.current);
    setTask(null);
    run(async () => {
      const created = await withKey(key, '/v1/videos', body);
      setTask(created);
      follow(created.id);
    });
  };

  return html`<div class="playground-page">
    <${PageHeader} title=${t('playground.title')} intro=${t('playground.intro')} />
    <${Card} title=${t('playground.keyTitle')}>
      <${Field} label=${t('playground.key')} name="key" type="password" autocomplete="off" spellcheck="false" value=${key} onInput=${(e) => saveKey(e.currentTarget.value.trim())} help=${t('playground.keyHelp')} />
    <//>
    <${ErrorNote} error=${models.error} onRetry=${models.reload} />
    ${
      model
        ? html`<${Card} title=${t('playground.request')}>
      <form id="playground-form" class="stack" aria-label=${t('playground.request')} onSubmit=${submit}>
        <div class="grid-form">
          <${Field} as="select" label=${t('playground.model')} name="model" value=${model.id} onChange=${(e) => {
            setModelId(e.currentTarget.value);
            setValues({ ...values, seconds: '', resolution: '' });
            setQuoted(null);
          }} options=${list.map((m) => [m.id, m.label ? `${m.label} (${m.id})` : m.id])} />
          <${Field} as="select" label=${t('playground.length')} name="seconds" value=${values.seconds} onChange=${change('seconds')} options=${[['', t('playground.default')], ...durationOptions(model)]} />
          <${Field} as="select" label=${t('playground.resolution')} name="resolution" value=${values.resolution} onChange=${change('resolution')} options=${[['', t('playground.default')], ...model.resolutions.map((r) => [r, r])]} />
        </div>
        <p class="muted small">${model.modes.map(modeLabel).join(', ')}</p>
        <${Field} as="textarea" label=${t('playground.prompt')} name="prompt" required rows="3" maxlength=${model.prompt_max_length ?? undefined} value=${values.prompt} onInput=${change('prompt')} />
        ${
          model.modes.includes('image-to-video')
            ? html`<${Field} label=${t('playground.image')} name="input_reference" type="url" value=${values.input_reference} onInput=${change('input_reference')} help=${t('playground.imageHelp')} />`
            : null
        }
        <div class="actions">
          <${Button} kind="secondary" icon="tags" disabled=${busy || !key || !values.prompt} onClick=${quote}>${t('playground.quote')}<//>
          <${Button} type="submit" icon="play" disabled=${busy || !key || !values.prompt}>${t('playground.generate')}<//>
        </div>
        ${quoted ? html`<p id="playground-quote" role="status">${t('playground.quoted', { quota: quota(quoted.quota), usd: usd(quoted.usd), seconds: num(quoted.seconds), resolution: quoted.resolution })}</p>` : null}
        <${ErrorNote} error=${error} />
      </form>
    <//>
    ${
      task
        ? html`<${Card} title=${t('playground.task', { id: task.id })} id="playground-task">
      <${Progress} value=${task.progress} status=${task.status} label=${t('playground.progress')} />
      ${task.status === 'failed' ? html`<p class="error-text">${task.error?.message ?? t('status.failed')}</p>` : null}
      ${task.status === 'completed' ? html`<video controls playsinline preload="metadata" src=${`/console/api/tasks/${encodeURIComponent(task.id)}/content`} aria-label=${t('playground.video')}></video>` : null}
    <//>`
        : null
    }
    <${Card} title=${t('playground.curl')} id="playground-curl" actions=${html`<${CopyButton} value=${curlOf(body)} label=${t('common.copy')} />`}>
      <pre><code>${curlOf(body)}</code></pre>
    <//>`
        : null
    }
  </div>`;
}
