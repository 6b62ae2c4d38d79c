/** The private form for secret options, as a Slack modal: what it shows, what it carries, and how it is read back. */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import {
  blockErrors,
  formModal,
  readFormMetadata,
  readFormState,
  SECRET_MODAL,
} from '../../../src/adapters/slack/modals.js';
import type { FormSpec } from '../../../src/core/ui/index.js';

const spec: FormSpec = {
  family: 'connect',
  command: 'key',
  title: 'connect key',
  line: '/scout connect key',
  fixed: {},
  more: '',
  fields: [
    {
      name: 'key',
      label: 'The API key of the service.',
      hint: '',
      description: '',
      allows: '',
      placeholder: '',
      required: true,
      input: 'secret',
      choices: [],
      also: [],
    },
  ],
};
const form = { id: 'scout.secret:AAAAAAAAAAAAAAAA', spec };
const where = { channelId: 'C1', responseUrl: 'https://hooks.example/1', responseUrlAt: 1 };

describe('the secret form', () => {
  it('asks for each secret in its own input and carries only its id and where to answer', () => {
    const view = formModal(form, where);
    if (view === null) throw new Error('the form fits');
    expect(view.callback_id).toBe(SECRET_MODAL);
    expect(view.title.text).toBe('/scout connect key');
    expect(view.title.text.length).toBeLessThanOrEqual(SLACK.MODAL_TITLE_MAX);
    const inputs = view.blocks.filter((b) => b.type === 'input');
    expect(inputs.map((b) => b.block_id)).toEqual(['secret.key']);
    expect(inputs.map((b) => (b as { element?: unknown }).element)).toEqual([
      { type: 'plain_text_input', action_id: 'value' },
    ]);
    expect(JSON.parse(view.private_metadata ?? '')).toEqual({ id: form.id, ...where });
    expect(readFormMetadata(view.private_metadata)).toEqual({ form: form.id, ...where });
  });

  it('reads typed secrets by option name, and keys problems by the input that shows them', () => {
    const typed = { 'secret.key': { value: { type: 'plain_text_input', value: '  a-key-0001 ' } } };
    expect(readFormState(typed).values).toEqual({ key: 'a-key-0001' });
    expect(blockErrors({ key: 'Enter a value.' }, true)).toEqual({ 'secret.key': 'Enter a value.' });
  });

  it('ignores metadata that is not its own', () => {
    expect(readFormMetadata('{"family":"creators","channelId":"C1"}')).toBeNull();
    expect(readFormMetadata('not json')).toBeNull();
    expect(readFormMetadata(undefined)).toBeNull();
  });
});
