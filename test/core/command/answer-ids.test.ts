/** Answer buttons: the line rides in the id, read back word for word; anything else is not one of them. */
import { describe, expect, it } from 'vitest';
import { answerButton, readAnswerId } from '../../../src/core/command/answer-ids.js';
import { readFormId } from '../../../src/core/command/forms/index.js';
import { InternalError } from '../../../src/core/errors.js';

describe('answer buttons', () => {
  it('carry their line in the id, read back as it was written', () => {
    const examples = answerButton('Examples', 'help creators search examples');
    expect(examples.label).toBe('Examples');
    expect(readAnswerId(examples.actionId)).toBe('help creators search examples');
    expect(readFormId(examples.actionId)).toBeNull();
  });

  it('take only lines of plain words, and read no other id', () => {
    expect(() => answerButton('Examples', 'help creators "two words"')).toThrow(InternalError);
    expect(readAnswerId('scout.form-of:creators.search')).toBeNull();
    expect(readAnswerId('scout.answer:help+creators+"x y"')).toBeNull();
    expect(readAnswerId('scout.answer:')).toBeNull();
  });
});
