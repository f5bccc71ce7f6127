import { Injectable } from '@nestjs/common';

/** The time source; injectable so tests can move time forward instead of sleeping. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}

export const toUnixSeconds = (ms: number | null | undefined): number => (ms ? Math.floor(ms / 1000) : 0);
