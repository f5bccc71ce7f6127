import type { EmulatorRequest } from './emulator-http';

/** How many entries each log of an emulator keeps: the simulator runs for days, so its logs must not grow without end. */
export const EMULATOR_LOG_LIMIT = 1_000;

/** Appends an entry to an emulator's log, dropping the oldest one once the log holds more than EMULATOR_LOG_LIMIT. */
export function keepInLog<T>(log: T[], entry: T): void {
  log.push(entry);
  if (log.length > EMULATOR_LOG_LIMIT) log.shift();
}

/** A create an emulator accepted, as its log keeps it: the JSON body and the request, with what its family adds (an endpoint). */
export type LoggedCreate<Extra extends object = object> = Extra & { body: Record<string, unknown>; request: EmulatorRequest };
