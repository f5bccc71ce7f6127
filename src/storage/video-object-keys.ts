import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { ServerSecret } from '../database/server-secret.service';

/**
 * Object keys of a task's video and thumbnail: an HMAC of the task id, so a key reveals nothing
 * about the task or its owner and cannot be guessed, yet every instance (and every retry of the
 * archive) arrives at the same key: a retried archive overwrites, never duplicates.
 */
@Injectable()
export class VideoObjectKeys {
  constructor(private readonly secret: ServerSecret) {}

  video(taskId: string): string {
    const name = this.nameOf(taskId);
    return `videos/${name.slice(0, 2)}/${name}.mp4`;
  }

  thumbnail(taskId: string): string {
    const name = this.nameOf(taskId);
    return `thumbnails/${name.slice(0, 2)}/${name}.jpg`;
  }

  private nameOf(taskId: string): string {
    return createHmac('sha256', this.secret.objectNamingKey()).update(taskId).digest('hex').slice(0, 40);
  }
}
