export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A small self-contained HTML page: no scripts, so it passes the strict CSP. `title` is escaped;
 * `style` and `body` are markup the caller built (escaping what it put in).
 */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>
${style}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
