// A short message in the page's live region (#toasts): errors stay longer.
export function toast(message, kind = 'info') {
  const item = document.createElement('div');
  item.className = `toast ${kind === 'error' ? 'error' : ''}`;
  item.textContent = message;
  document.getElementById('toasts').append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}
