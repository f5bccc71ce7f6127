import type { EmulatorRequest } from './emulator-http';

/** A JSON request's fields; none when it sent no body. */
export function jsonFieldsOf(req: EmulatorRequest): Record<string, unknown> {
  return (req.json ?? {}) as Record<string, unknown>;
}

/** A request's text field, empty when it is anything else: what a prompt's markers are looked for in. */
export function textOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
