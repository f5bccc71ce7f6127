// Who is signed in (GET /console/api/session): null when signed out.
import { api, setSession } from '../api.js';
import { createStore, useStore } from './store.js';

export const sessionStore = createStore(null);

/** Set with the session cookie by the gateway (which only it can read): without it the page is signed out. */
const signedInHint = () => document.cookie.split(';').some((part) => part.trim() === 'console_signed_in=1');

export async function loadSession() {
  let session = null;
  // Signed out: no request, so the browser's console shows no 401.
  if (signedInHint()) {
    try {
      session = await api('/console/api/session', { quiet401: true });
    } catch {
      session = null;
    }
  }
  adoptSession(session);
  return session;
}

export function adoptSession(session) {
  setSession(session);
  sessionStore.set(session);
}

export async function signOut() {
  try {
    await api('/console/api/session', { method: 'DELETE', quiet401: true });
  } catch {
    /* signed out either way */
  }
  adoptSession(null);
}

export const useSession = () => useStore(sessionStore);
