// Preact + hooks + htm, served by the gateway from npm (see ConsoleStaticController). No build step:
// `html` is htm bound to Preact's h, so components are plain ES modules using tagged templates.
import { h } from '/console/vendor/preact.mjs';
import htm from '/console/vendor/htm.mjs';

export const html = htm.bind(h);
export { h, render, Fragment, createContext, toChildArray } from '/console/vendor/preact.mjs';
export {
  useState,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useCallback,
  useContext,
  useReducer,
} from '/console/vendor/preact-hooks.mjs';
