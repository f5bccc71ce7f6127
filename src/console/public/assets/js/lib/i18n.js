// Messages: every visible string lives in /console/assets/i18n/<lang>.json; pages call t('key', { name }).
import { createStore, remembered, useStore } from './store.js';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
];
const STORAGE_KEY = 'console.lang';
const catalogs = {};
export const langStore = createStore(pickInitial());

function pickInitial() {
  const saved = remembered.get(STORAGE_KEY);
  if (LANGUAGES.some((l) => l.code === saved)) return saved;
  return (navigator.languages ?? [navigator.language]).some((l) => /^zh/i.test(l)) ? 'zh-CN' : 'en';
}

// Each language is its main catalog plus the admin pages' own (admin.<lang>.json), merged.
const CATALOG_FILES = (lang) => [`${lang}.json`, `admin.${lang}.json`];

async function load(lang) {
  if (!catalogs[lang]) {
    const parts = await Promise.all(
      CATALOG_FILES(lang).map(async (file) => {
        const response = await fetch(`/console/assets/i18n/${file}`, { credentials: 'same-origin' });
        return response.ok ? response.json() : {};
      }),
    );
    catalogs[lang] = Object.assign({}, ...parts);
  }
  return catalogs[lang];
}

/** Loads English (the fallback) and the chosen language before the first render. */
export async function initI18n() {
  await Promise.all([load('en'), load(langStore.get())]);
  document.documentElement.lang = langStore.get();
}

export async function setLanguage(lang) {
  await load(lang);
  remembered.set(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  langStore.set(lang);
}

/** True when the catalogs hold `key` (in the page's language or English). */
export function hasMessage(key) {
  return catalogs[langStore.get()]?.[key] !== undefined || catalogs.en?.[key] !== undefined;
}

/**
 * t('tasks.count', { n: 3 }) -> the message with {n} filled in; a missing key falls back to English, then to the key.
 * With a count of one (`n`, else `total`) a `<key>.one` message, where there is one, is used ("1 task", not "1 tasks").
 */
export function t(key, params) {
  const lang = langStore.get();
  // The count may come formatted (num(1) is "1"): one is one either way.
  const count = params?.n ?? params?.total;
  const singular = count === 1 || count === '1' ? `${key}.one` : null;
  let message = (singular && (catalogs[lang]?.[singular] ?? catalogs.en?.[singular])) ?? catalogs[lang]?.[key] ?? catalogs.en?.[key] ?? key;
  if (params) message = message.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
  return message;
}

/** Re-renders the calling component when the language changes; returns the language code. */
export const useLang = () => useStore(langStore);
