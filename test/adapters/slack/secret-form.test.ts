/** The private form for secret options: what it shows, what it carries, and how a submission is read. */
import { describe, expect, it } from 'vitest';
import {
  readSecretMetadata,
  readSecrets,
  SECRET_MODAL,
  secretModal,
} from '../../../src/adapters/slack/secret-form.js';
import { SLACK } from '../../../src/core/ui/index.js';

const prompt = {
  family: 'connect',
  command: 'key',
  given: {},
  fields: [{ name: 'key', label: 'The API key of the service.' }],
};
const where = { channelId: 'C1', responseUrl: 'https://hooks.example/1' };

describe('the secret form', () => {
  it('asks for each secret in its own input and carries only the command and where to answer', () => {
    const view = secretModal(prompt, where);
    expect(view?.callback_id).toBe(SECRET_MODAL);
    expect(view?.title.text.length).toBeLessThanOrEqual(SLACK.MODAL_TITLE_MAX);
    expect(view?.blocks.filter((b) => b.type === 'input').map((b) => b.block_id)).toEqual(['secret.key']);
    expect(readSecretMetadata(view?.private_metadata)).toEqual({
      family: 'connect',
      command: 'key',
      given: {},
      fields: ['key'],
      ...where,
    });
  });

  it('does not open for a command line too long to carry', () => {
    expect(
      secretModal({ ...prompt, given: { note: 'x'.repeat(SLACK.MODAL_PRIVATE_METADATA_MAX) } }, where),
    ).toBeNull();
  });

  it('reads typed secrets, and names each empty input', () => {
    const typed = { 'secret.key': { value: { value: '  a-key-0001 ' } } };
    expect(readSecrets(['key'], typed)).toEqual({ ok: true, values: { key: 'a-key-0001' } });
    expect(readSecrets(['key'], { 'secret.key': { value: { value: ' ' } } })).toEqual({
      ok: false,
      errors: { 'secret.key': 'Enter a value.' },
    });
  });

  it('ignores metadata that is not its own', () => {
    expect(readSecretMetadata('{"family":"creators","channelId":"C1"}')).toBeNull();
    expect(readSecretMetadata('not json')).toBeNull();
    expect(readSecretMetadata(undefined)).toBeNull();
  });
});
