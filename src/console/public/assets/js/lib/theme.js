// Light and dark themes: CSS variables switched by <html data-theme>; the default follows the system.
import { createStore, remembered, useStore } from './store.js';

const STORAGE_KEY = 'console.theme';
const systemDark = matchMedia('(prefers-color-scheme: dark)');
const saved = () => remembered.get(STORAGE_KEY);
export const themeStore = createStore(saved() === 'dark' || saved() === 'light' ? saved() : systemDark.matches ? 'dark' : 'light');

function apply(theme) {
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', theme);
}
apply(themeStore.get());
themeStore.subscribe(apply);
// Until the user picks one, the console follows the system's setting as it changes.
systemDark.addEventListener('change', (event) => {
  if (!saved()) themeStore.set(event.matches ? 'dark' : 'light');
});

export function toggleTheme() {
  const next = themeStore.get() === 'dark' ? 'light' : 'dark';
  remembered.set(STORAGE_KEY, next);
  themeStore.set(next);
}

export const useTheme = () => useStore(themeStore);

/** A CSS variable's current value (charts draw on canvas, so they read colours from the theme). */
export const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
