import { escapeHtml, htmlPage } from '../common/http/html-page';

const STYLE = `body { font-family: system-ui, sans-serif; background: #f6f7f9; color: #1d2430; margin: 0; }
main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
h1 { font-size: 1.4rem; margin-top: 0; }`;

/** The page a browser sees when a verification callback cannot be delivered (no scripts: CSP-safe). */
export function callbackErrorPage(title: string, message: string): string {
  return htmlPage(
    title,
    STYLE,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>You can close this page and return to the application that sent you here.</p>`,
  );
}
