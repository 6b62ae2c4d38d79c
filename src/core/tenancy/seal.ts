/**
 * Encryption at rest for secrets Scout keeps (service keys, Slack installations): AES-256-GCM from node:crypto,
 * a key derived with HKDF from SCOUT_ENCRYPTION_KEY, a fresh 12-byte IV per value, and the row's identity as
 * additional data, so a sealed value copied into another tenant's row does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { InternalError, ScoutError } from '../errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens secrets bound to a context (the tenant or installation they belong to). */
export interface Sealer {
  seal(plain: string, context: string): string;
  /** The plain text; throws when the value was altered, sealed for another context or with another key. */
  open(sealed: string, context: string): string;
}

/** Thrown when a sealed value cannot be opened. */
export class SealError extends ScoutError {
  override readonly name = 'SealError';
  readonly code = 'SEAL_FAILED';
}

/** Creates a sealer from the deployment's encryption secret (at least 32 characters). */
export function createSealer(secret: string): Sealer {
  // The configuration refuses a shorter SCOUT_ENCRYPTION_KEY, so a short one here is a caller's bug.
  if (secret.length < 32) throw new InternalError('The encryption secret must be at least 32 characters.');
  const key = Buffer.from(hkdfSync('sha256', secret, 'scout', 'scout secrets at rest v1', 32));
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, context) {
      const [version, data] = sealed.split(':', 2);
      if (version !== VERSION || data === undefined) throw new SealError('Unknown sealed value format.');
      const raw = Buffer.from(data, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SealError('Sealed value is too short.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealError(
          'A stored secret could not be decrypted: SCOUT_ENCRYPTION_KEY differs from the one it was sealed with.',
        );
      }
    },
  };
}
