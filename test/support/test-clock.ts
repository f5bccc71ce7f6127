import { Clock } from '../../src/common/runtime/clock';

/** Real time plus an offset tests can push forward, so due work becomes due without sleeping. */
export class TestClock extends Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
