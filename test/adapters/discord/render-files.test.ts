/** A reply's files become attachments of the first Discord message: bytes as they are, the title as description. */
import { describe, expect, it } from 'vitest';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import { renderDiscord } from '../../../src/adapters/discord/render.js';
import { file, reply, text } from '../../../src/core/ui/index.js';

describe('renderDiscord files', () => {
  it('turns each file into an attachment and keeps the messages as they were', () => {
    const bytes = new TextEncoder().encode('id,name\r\n1,Ana\r\n');
    const csv = file('Spring Launch.csv', bytes, { mimeType: 'text/csv', title: 'Spring Launch: 1 contact' });
    const withFile = renderDiscord(reply([text('Exported')], { visibility: 'channel', files: [csv] }));
    const without = renderDiscord(reply([text('Exported')], { visibility: 'channel' }));
    expect(withFile.messages).toEqual(without.messages);
    expect(without.files).toEqual([]);
    expect(withFile.files).toHaveLength(1);
    const [attachment] = withFile.files;
    expect(attachment?.name).toBe('Spring-Launch.csv');
    expect(attachment?.description).toBe('Spring Launch: 1 contact');
    expect(Buffer.isBuffer(attachment?.attachment)).toBe(true);
    expect(attachment?.attachment.equals(Buffer.from(bytes))).toBe(true);
    expect(attachment?.description.length).toBeLessThanOrEqual(DISCORD.FILE_DESCRIPTION_MAX);
  });
});
