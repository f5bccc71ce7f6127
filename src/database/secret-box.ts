import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ServerSecret } from './server-secret.service';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class UnreadableSecretError extends Error {}

/**
 * Seals short secrets for storage (AES-256-GCM) under one purpose's key of the server secret:
 * `<prefix><base64 of iv, tag, ciphertext>`. Opens with the current key or any previous one (a
 * rotation); `needsReseal` says which stored values the current key should seal again.
 */
export class SecretBox {
  constructor(
    private readonly serverSecret: ServerSecret,
    private readonly purpose: string,
    private readonly prefix: string,
  ) {}

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.serverSecret.derive(this.purpose), iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${this.prefix}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Whether `stored` is in this box's format (a value without the prefix is a legacy plain one). */
  isSealed(stored: string): boolean {
    return stored.startsWith(this.prefix);
  }

  /** The secret; UnreadableSecretError when no key this gateway has opens it (a server secret was lost). */
  open(stored: string): string {
    return this.openWithKeyIndex(stored).secret;
  }

  /** Plain legacy values and values sealed with a previous key; throws like `open` for unreadable ones. */
  needsReseal(stored: string): boolean {
    return !this.isSealed(stored) || this.openWithKeyIndex(stored).keyIndex > 0;
  }

  private openWithKeyIndex(stored: string): { secret: string; keyIndex: number } {
    const opened = this.tryOpen(stored);
    if (!opened) throw new UnreadableSecretError(`a stored ${this.purpose} value cannot be decrypted with the configured server secret(s)`);
    return opened;
  }

  private tryOpen(stored: string): { secret: string; keyIndex: number } | null {
    if (!this.isSealed(stored)) return null;
    const raw = Buffer.from(stored.slice(this.prefix.length), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    const keys = this.serverSecret.deriveAll(this.purpose);
    for (let keyIndex = 0; keyIndex < keys.length; keyIndex++) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', keys[keyIndex], raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return {
          secret: Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'),
          keyIndex,
        };
      } catch {
        // Not this key: a value sealed before a rotation opens with a previous one.
      }
    }
    return null;
  }
}
