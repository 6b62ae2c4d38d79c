import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { helpFamily } from '../../src/commands/help.js';
import { remixFamily } from '../../src/commands/remix.js';
import { formSpec, readForm } from '../../src/core/command/forms/index.js';
import type { CommandDef } from '../../src/core/command/types.js';
import { type FormSpec, renderText } from '../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

let h: Harness;

const IMAGE_PATH = '/media/api/v1/image-rewrite';
const VIDEO_PATH = '/media/api/v1/remix';

async function run(line: string) {
  const before = h.requests().length;
  const out = await h.type(line);
  return { out, sent: h.requests().slice(before) };
}

/** Result URLs printed for remixed files. */
const outputs = (out: string) =>
  [...out.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/output\/[^\s)]+)/g)].map((m) => m[1] as string);

beforeAll(async () => {
  h = await startHarness({ families: [remixFamily, helpFamily], sandbox: { rateLimitPerMinute: 100_000 } });
});

afterAll(async () => {
  await h.stop();
});

describe('remix image', () => {
  it('remixes one image with global parameters, showing progress first', async () => {
    const { out, sent } = await run(
      'remix image https://example.com/one.jpg brightness:0.2 zoom:1.1 device:"iPhone 15 Pro" quality:90',
    );
    expect(sent.map((r) => r.path)).toEqual([IMAGE_PATH]);
    expect(sent[0]?.body).toEqual({
      image_url: 'https://example.com/one.jpg',
      parameters: { brightness: 0.2, zoomFactor: 1.1, deviceModel: 'iPhone 15 Pro', quality: 90 },
    });
    expect(out.indexOf('Info: Remixing 1 image…')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('Info: Remixing 1 image…')).toBeLessThan(out.indexOf('Done: Remixed 1 image'));
    const [url] = outputs(out);
    expect(url?.startsWith(`${h.sandbox.outputUrl}/`)).toBe(true);
    expect(out).toContain('from https://example.com/one.jpg');
    const applied = /applied: (.*)/.exec(out)?.[1]?.split(' · ') ?? [];
    expect(applied.sort()).toEqual(['brightness 0.2', 'device iPhone 15 Pro', 'quality 90', 'zoom 1.1']);
  });

  it('sends per-image parameters in the batch form, global ones once', async () => {
    const { out, sent } = await run(
      'remix image https://example.com/a.jpg https://example.com/b.png contrast:1.2 ' +
        'image2.brightness:-0.3 image2.quality:90 image2.device:"Pixel 8" 1.hue:-10',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      images: [
        { image_url: 'https://example.com/a.jpg', hue: -10 },
        { image_url: 'https://example.com/b.png', brightness: -0.3, quality: 90, deviceModel: 'Pixel 8' },
      ],
      parameters: { contrast: 1.2 },
    });
    expect(out).toContain('Info: Remixing 2 images…');
    expect(outputs(out)).toHaveLength(2);
    expect(out).toContain('applied: contrast 1.2 · hue -10');
    expect(out).toContain('applied: contrast 1.2 · brightness -0.3 · quality 90 · device Pixel 8');
  });

  it('reads the URLs and per-image options typed into one platform form field', async () => {
    const before = h.requests().length;
    const answer = await h.app.dispatcher.options({
      actor: LOCAL_ACTOR,
      channelId: 'form',
      family: 'remix',
      command: 'image',
      options: {
        urls: 'https://example.com/f1.jpg https://example.com/f2.jpg image2.device:"Pixel 8"',
        brightness: '0.1',
      },
    });
    const sent = h.requests().slice(before);
    expect(sent[0]?.body).toEqual({
      images: [
        { image_url: 'https://example.com/f1.jpg' },
        { image_url: 'https://example.com/f2.jpg', deviceModel: 'Pixel 8' },
      ],
      parameters: { brightness: 0.1 },
    });
    expect(answer.visibility).toBe('channel');
    expect(outputs(renderText(answer).text)).toHaveLength(2);
  });

  it('names a wrong per-image option once in a submitted form, on the field it was typed in', () => {
    const def = remixFamily.commands.find((c) => c.name === 'image') as CommandDef<unknown>;
    const spec = formSpec(def) as FormSpec;
    const reading = readForm(def, spec, {
      values: { urls: 'https://example.com/f1.jpg image1.zoom:x' },
      platform: 'terminal',
    });
    expect(reading).toEqual({
      ok: false,
      errors: { urls: 'image1.zoom takes a number such as 1.1, not "x".' },
    });
  });

  it('takes up to 20 images and refuses a 21st before sending', async () => {
    const urls = Array.from({ length: 21 }, (_, i) => `https://example.com/batch/${i + 1}.jpg`);
    const twenty = await run(`remix image ${urls.slice(0, 20).join(' ')}`);
    expect(twenty.sent).toHaveLength(1);
    expect(twenty.sent[0]?.body).toMatchObject({
      images: urls.slice(0, 20).map((image_url) => ({ image_url })),
    });
    expect(outputs(twenty.out)).toHaveLength(20);
    const many = await run(`remix image ${urls.join(' ')}`);
    expect(many.out).toMatch(/^Error: A remix takes at most 20 images; 21 URLs were given\.$/m);
    expect(many.sent).toHaveLength(0);
  });

  it.each([
    ['remix image', /^Error: Give at least one image URL \(http or https\)\.$/m],
    [
      'remix image ftp://example.com/a.jpg',
      /^Error: image1 must be an http\(s\) URL such as https:\/\/example\.com\/a\.jpg\.$/m,
    ],
    ['remix image https://example.com/a.jpg not-a-url', /^Error: image2 must be an http\(s\) URL/m],
    [
      'remix image https://example.com/a.jpg image1.brigthness:0.1',
      /^Error: image1\.brigthness is not an image option\. Did you mean "brightness"\? Known: brightness, contrast, saturation, hue, quality, zoom, device\.$/m,
    ],
    [
      'remix image https://example.com/a.jpg image3.hue:4',
      /^Error: There is no image3: one URL was given, so the only image is image1\.$/m,
    ],
    [
      'remix image https://example.com/a.jpg https://example.com/b.jpg image0.hue:4',
      /^Error: There is no image0: images are numbered image1 to image2, one per URL\.$/m,
    ],
    [
      'remix image https://example.com/a.jpg image1.quality:high',
      /^Error: image1\.quality takes a number such as 90, not "high"\.$/m,
    ],
    [
      'remix image https://example.com/a.jpg image1.zoom:x',
      /^Error: image1\.zoom takes a number such as 1\.1, not "x"\.$/m,
    ],
    ['remix image https://example.com/a.jpg brightness:bright', /brightness takes a number/],
    [
      'remix image https://example.com/a.jpg image1.hue:1 image1.hue:2',
      /^Error: image1\.hue is given twice\.$/m,
    ],
    ['remix image https://example.com/a.jpg shine:2', /Unknown option "shine"/],
  ])('%s is refused before anything is sent', async (line, message) => {
    const { out, sent } = await run(line);
    expect(out).toMatch(/^Error: /);
    expect(out).toMatch(message);
    expect(sent).toHaveLength(0);
  });
});

describe("remix image parameters, whose ranges are the service's", () => {
  it.each([
    [
      'remix image https://example.com/a.jpg brightness:5',
      { image_url: 'https://example.com/a.jpg', parameters: { brightness: 5 } },
      /Error: The service rejected the request: brightness must be a number between -1 and 1/,
    ],
    [
      'remix image https://example.com/a.jpg image1.hue:400 quality:250',
      { images: [{ image_url: 'https://example.com/a.jpg', hue: 400 }], parameters: { quality: 250 } },
      /Error: The service rejected the request: quality must be a number between 1 and 100/,
    ],
  ])("%s is sent as asked, and the service's refusal shown", async (line, body, message) => {
    const { out, sent } = await run(line);
    expect(sent.map((r) => [r.path, r.status, r.body])).toEqual([[IMAGE_PATH, 400, body]]);
    expect(out).toMatch(message);
  });

  it('help states no invented ranges for them', async () => {
    for (const line of ['help remix image', 'help remix image options']) {
      const out = await h.type(line);
      const said = out.split('\n').flatMap((text) => text.trim().split(' · '));
      for (const [name, what] of [
        ['brightness', 'Brightness'],
        ['contrast', 'Contrast'],
        ['saturation', 'Saturation'],
        ['hue', 'Hue'],
        ['quality', 'Output quality'],
        ['zoom', 'Zoom'],
      ]) {
        expect(
          said.filter((entry) => entry.startsWith(`${name}: `)),
          `${line}: ${name}`,
        ).toEqual([`${name}: ${what} (a number)`]);
      }
      expect(out, line).not.toContain('zoomFactor');
    }
  });
});

describe('remix video', () => {
  it('remixes a video and shows the result with every applied parameter', async () => {
    const { out, sent } = await run(
      'remix video https://example.com/clip.mp4 speed:1.05 zoom:1.1 mute:yes temperature:1.2 device:"Pixel 8"',
    );
    expect(sent.map((r) => r.path)).toEqual([VIDEO_PATH]);
    expect(sent[0]?.body).toEqual({
      video_url: 'https://example.com/clip.mp4',
      parameters: {
        playbackSpeed: 1.05,
        zoomFactor: 1.1,
        removeAudio: true,
        temperature: 1.2,
        deviceModel: 'Pixel 8',
      },
    });
    expect(out.indexOf('Info: Remixing the video')).toBeLessThan(out.indexOf('Done: Video remixed'));
    const [url] = outputs(out);
    expect(url).toMatch(/\.mp4$/);
    expect(out).toContain(`Done: Video remixed in `);
    expect(out).toContain(`: open the result (${url}).`);
    // What was applied is named as people type it, never by the service's keys.
    expect(out).toContain('speed: 1.05');
    expect(out).toContain('zoom: 1.1');
    expect(out).toContain('mute: true');
    expect(out).toContain('device: Pixel 8');
    expect(out).not.toMatch(/playback_speed|zoom_factor|remove_audio|device_model/);
  });

  it('runs a duplicate once and tells it the first run is done, quoting what that run said', async () => {
    const line = 'remix video https://example.com/twice.webm brightness:0.1';
    const first = await run(line);
    const second = await run(line);
    expect(first.sent).toHaveLength(1);
    expect(outputs(first.out)).toHaveLength(1);
    expect(second.sent).toHaveLength(0);
    expect(second.out.startsWith('Info: Already done (nothing changed).\n')).toBe(true);
    expect(second.out).toMatch(/^First run, \d+ seconds? ago: “Video remixed[^”]*\.”$/m);
    // The quote keeps the link to the result, in case the first answer never reached the person.
    expect(second.out).toContain(outputs(first.out)[0] as string);
    // Remix is not priced: the repeat says nothing of credits.
    expect(second.out).not.toContain('credits');
  });

  it('takes a link without a file extension, leaving what it serves to the service', async () => {
    const { out, sent } = await run('remix video https://files.example.com/download?id=5 zoom:1.1');
    expect(sent.map((r) => [r.path, r.body])).toEqual([
      [VIDEO_PATH, { video_url: 'https://files.example.com/download?id=5', parameters: { zoomFactor: 1.1 } }],
    ]);
    expect(out).toContain('Done: Video remixed');
    expect(outputs(out)).toHaveLength(1);
  });

  it("shows the service's answer when what the link serves is no video", async () => {
    const { out, sent } = await run('remix video https://example.com/clip.gif');
    expect(sent.map((r) => [r.path, r.status])).toEqual([[VIDEO_PATH, 400]]);
    expect(out).toMatch(
      /^Error: The service rejected the request: url must point to an MP4, MOV, AVI or WebM file/m,
    );
  });

  it('surfaces what the service refuses', async () => {
    const { out, sent } = await run('remix video https://example.com/clip.mov hueShift:500');
    expect(sent).toHaveLength(1);
    expect(out).toMatch(/Error: .*hue-shift must be a number between -180 and 180/);
  });

  it.each([
    ['remix video', /url is required/],
    ['remix video ftp://example.com/clip.mp4', /^Error: url must be an http\(s\) URL/m],
    ['remix video url:abc', /^Error: url must be an http\(s\) URL/m],
    ['remix video https://', /^Error: url must be an http\(s\) URL/m],
    ['remix video https://bad..host/clip.mp4', /^Error: url must be an http\(s\) URL/m],
    ['remix video "https://example.com/my clip.mp4"', /^Error: url must be an http\(s\) URL/m],
    ['remix video https://example.com/clip.mp4 speed:9', /^Error: speed must be a number from 0\.1 to 5\.$/m],
    ['remix video https://example.com/clip.mp4 volume:3', /^Error: volume must be a number from 0 to 2\.$/m],
    ['remix video https://example.com/clip.mp4 noise:2', /^Error: noise must be a number from 0 to 1\.$/m],
    ['remix video https://example.com/clip.mp4 mute:sometimes', /^Error: mute takes yes or no/m],
    ['remix video https://example.com/a.mp4 https://example.com/b.mp4', /not understood here/],
  ])('%s is refused before anything is sent', async (line, message) => {
    const { out, sent } = await run(line);
    expect(out).toMatch(/^Error: /);
    expect(out).toMatch(message);
    expect(sent).toHaveLength(0);
  });
});

describe('credits', () => {
  it('spends nothing: remix is not priced', async () => {
    expect(await h.spentToday()).toBe(0);
    expect(h.sandbox.credits(TEST_KEY)).toBe(100_000);
  });
});
