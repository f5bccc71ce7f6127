import { Injectable } from '@nestjs/common';

/**
 * An in-process doorbell: a task's end committed here, so the delivery job looks for due work now
 * instead of at its next tick (other instances find it at theirs).
 */
@Injectable()
export class WebhookWakeUp {
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  ring(): void {
    this.listener?.();
  }
}
