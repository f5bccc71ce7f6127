// Who is signed in (GET /console/api/session): null when signed out.
import { api, setSession } from '../api.js';
import { createStore, useStore } from './store.js';

export const sessionStore = createStore(null);

export async function loadSession() {
  let session;
  try {
    session = await api('/console/api/session', { quiet401: true });
  } catch {
    session = null;
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
