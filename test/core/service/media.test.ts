import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, ServiceInputError } from '../../../src/core/service/errors.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('media remix', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { remixDelayMs: 50 } });
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('remixes one image against the media URL', async () => {
    const { data, meta } = await h.client.media.remixImage({
      image_url: 'https://example.com/a.jpg',
      parameters: { brightness: 0.2, quality: 90 },
    });
    expect(last()?.path).toBe('/media/api/v1/image-rewrite');
    expect(last()?.body).toEqual({
      image_url: 'https://example.com/a.jpg',
      parameters: { brightness: 0.2, quality: 90 },
    });
    expect(data.imageCount).toBe(1);
    expect(data.inputImageUrls).toEqual(['https://example.com/a.jpg']);
    expect(data.processedImages[0]?.url).toMatch(/^http/);
    expect(data.processedImages[0]?.applied_params).toEqual({ brightness: 0.2, quality: 90 });
    expect(data.toolTime).toBeCloseTo(0.05);
    expect(meta.cost).toBe(0);
  });

  it('remixes a batch where each image may override the global parameters', async () => {
    const { data } = await h.client.media.remixImage({
      images: [
        { image_url: 'https://example.com/1.png', hue: 30 },
        { image_url: 'https://example.com/2.png' },
      ],
      parameters: { hue: 10 },
    });
    expect(data.imageCount).toBe(2);
    expect(data.appliedParameters).toEqual([{ hue: 30 }, { hue: 10 }]);
  });

  it('remixes a video and reports the applied parameters', async () => {
    const { data } = await h.client.media.remixVideo({
      video_url: 'https://example.com/clip.mov',
      parameters: { playbackSpeed: 1.1, removeAudio: true },
    });
    expect(last()?.path).toBe('/media/api/v1/remix');
    expect(data.url).toMatch(/\.mp4$/);
    expect(data.applied_params).toMatchObject({ playback_speed: 1.1, remove_audio: true });
    expect(data.tool_time).toBeCloseTo(0.05);
  });

  it('does not repeat a remix after a server error', async () => {
    const before = h.sandbox.requests(KEY).length;
    h.sandbox.injectFaults(KEY, { kind: 'server-error', status: 502 });
    const error = (await h.client.media
      .remixVideo({ video_url: 'https://example.com/clip.mp4' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(h.sandbox.requests(KEY).length - before).toBe(1);
  });

  it('reports success: false inside a 200 as a failure', async () => {
    h.sandbox.injectFaults(KEY, {
      kind: 'error-shape',
      status: 200,
      body: { success: false, message: 'image could not be downloaded', data: {} },
    });
    const error = (await h.client.media
      .remixImage({ image_url: 'https://example.com/gone.jpg' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toContain('image could not be downloaded');
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const images = Array.from({ length: 21 }, (_, i) => ({ image_url: `https://example.com/${i}.png` }));
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => h.client.media.remixImage({}), 'image_url'],
      [() => h.client.media.remixImage({ image_url: 'ftp://example.com/a.jpg' }), 'image_url'],
      [() => h.client.media.remixImage({ images }), 'images'],
      [() => h.client.media.remixImage({ images: [] }), 'images'],
      [
        () => h.client.media.remixImage({ image_url: 'https://e.com/a.jpg', images: images.slice(0, 1) }),
        'images',
      ],
      [() => h.client.media.remixVideo({ video_url: 'ftp://example.com/a.mp4' }), 'video_url'],
      [
        () =>
          h.client.media.remixImage({ image_url: 'https://example.com/a.jpg', parameters: { hue: 'red' } }),
        'parameters.hue',
      ],
      [
        () =>
          h.client.media.remixVideo({
            video_url: 'https://example.com/a.mp4',
            parameters: { zoomFactor: 6 },
          }),
        'parameters.zoomFactor',
      ],
      [
        () =>
          h.client.media.remixVideo({ video_url: 'https://example.com/a.mp4', parameters: { hue: -181 } }),
        'parameters.hue',
      ],
    ];
    for (const [call, field] of cases) {
      const error = (await call().catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues.map((i) => i.field)).toContain(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});
