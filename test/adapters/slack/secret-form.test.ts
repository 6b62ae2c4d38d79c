/** The private form for secret options: what it shows, what it carries, and how a submission is read. */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import {
  blockErrors,
  readSecretMetadata,
  readSecretValues,
  SECRET_MODAL,
  secretModal,
} from '../../../src/adapters/slack/secret-form.js';

const prompt = {
  family: 'connect',
  command: 'key',
  line: '/scout connect key',
  given: {},
  fields: [{ name: 'key', label: 'The API key of the service.' }],
};
const form = { id: 'scout.secret:AAAAAAAAAAAAAAAA', prompt };
const where = { channelId: 'C1', responseUrl: 'https://hooks.example/1' };

describe('the secret form', () => {
  it('asks for each secret in its own input and carries only its id and where to answer', () => {
    const view = secretModal(form, where);
    expect(view.callback_id).toBe(SECRET_MODAL);
    expect(view.title.text).toBe('/scout connect key');
    expect(view.title.text.length).toBeLessThanOrEqual(SLACK.MODAL_TITLE_MAX);
    expect(view.blocks.filter((b) => b.type === 'input').map((b) => b.block_id)).toEqual(['secret.key']);
    expect(readSecretMetadata(view.private_metadata)).toEqual({ id: form.id, ...where });
  });

  it('opens for a long command line: the options given stay in core, out of the metadata', () => {
    const view = secretModal(
      { ...form, prompt: { ...prompt, given: { note: 'x'.repeat(SLACK.MODAL_PRIVATE_METADATA_MAX) } } },
      where,
    );
    expect(view.private_metadata?.length).toBeLessThanOrEqual(SLACK.MODAL_PRIVATE_METADATA_MAX);
  });

  it('reads typed secrets by option name, and keys problems by the input that shows them', () => {
    const typed = { 'secret.key': { value: { value: '  a-key-0001 ' } }, other: { value: { value: 'x' } } };
    expect(readSecretValues(typed)).toEqual({ key: '  a-key-0001 ' });
    expect(blockErrors({ key: 'Enter a value.' })).toEqual({ 'secret.key': 'Enter a value.' });
  });

  it('ignores metadata that is not its own', () => {
    expect(readSecretMetadata('{"family":"creators","channelId":"C1"}')).toBeNull();
    expect(readSecretMetadata('not json')).toBeNull();
    expect(readSecretMetadata(undefined)).toBeNull();
  });
});
