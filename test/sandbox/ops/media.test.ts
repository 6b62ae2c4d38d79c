import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface ImageBody {
  success: boolean;
  message: string;
  data: {
    imageCount: number;
    inputImageUrls: string[];
    parameters: Record<string, unknown>;
    result: {
      metadata: { tool_time: number; count: number };
      data: { results: { url: string; applied_params: Record<string, unknown> }[] };
    };
    processedImages: { url: string; applied_params: Record<string, unknown> }[];
    appliedParameters: Record<string, unknown>[];
    processingTime: number;
  };
}
interface VideoBody {
  metadata: { tool_time: number };
  data: { url: string; applied_params: Record<string, unknown> };
}

let sandbox: Sandbox;
const media = () => clientFor(sandbox, 'sandbox-demo-key', 'media');

afterEach(async () => {
  await sandbox.stop();
});

describe('image remix', () => {
  it('processes one image and serves the result from the output host', async () => {
    sandbox = await startSandbox();
    const credits = sandbox.credits('sandbox-demo-key');
    const answer = await media().post<ImageBody>('/api/v1/image-rewrite', {
      image_url: 'https://img.example.com/a.jpg',
      parameters: { brightness: 0.2, deviceModel: 'Pixel 8' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    const { data } = answer.json;
    expect(data).toMatchObject({ imageCount: 1, inputImageUrls: ['https://img.example.com/a.jpg'] });
    expect(data.parameters).toEqual({ brightness: 0.2, deviceModel: 'Pixel 8' });
    expect(data.result.metadata.count).toBe(1);
    expect(data.processedImages).toEqual(data.result.data.results);
    expect(data.appliedParameters).toEqual([{ brightness: 0.2, deviceModel: 'Pixel 8' }]);
    const url = data.processedImages[0]?.url as string;
    expect(url.startsWith(`${sandbox.outputUrl}/`)).toBe(true);
    const file = await request(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    await file.body.dump();
    // Remix is free in the sandbox.
    expect(sandbox.credits('sandbox-demo-key')).toBe(credits);
  });

  it('applies global parameters overridden by each image own ones', async () => {
    sandbox = await startSandbox();
    const answer = await media().post<ImageBody>('/api/v1/image-rewrite', {
      images: [
        { image_url: 'https://img.example.com/1.jpg' },
        { image_url: 'https://img.example.com/2.jpg', contrast: 2, quality: 80 },
        { image_url: 'https://img.example.com/3.jpg', parameters: { hue: -30 } },
      ],
      parameters: { contrast: 1.2, hue: 10 },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data.imageCount).toBe(3);
    expect(answer.json.data.appliedParameters).toEqual([
      { contrast: 1.2, hue: 10 },
      { contrast: 2, hue: 10, quality: 80 },
      { contrast: 1.2, hue: -30 },
    ]);
    const urls = answer.json.data.processedImages.map((i) => i.url);
    expect(new Set(urls).size).toBe(3);
  });

  it.each([
    [{}, 'image_url'],
    [{ image_url: 'ftp://x/a.jpg' }, 'image_url'],
    [{ images: [] }, 'images'],
    [
      { images: Array.from({ length: 21 }, (_, i) => ({ image_url: `https://x.example.com/${i}.jpg` })) },
      'images',
    ],
    [{ image_url: 'https://x.example.com/a.jpg', parameters: { brightness: 5 } }, 'brightness'],
    [{ image_url: 'https://x.example.com/a.jpg', parameters: { zoom: 2 } }, 'zoom'],
  ])('answers 400 shape C for %j', async (body, text) => {
    sandbox = await startSandbox();
    const answer = await media().post('/api/v1/image-rewrite', body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: expect.stringContaining(text) });
  });
});

describe('video remix', () => {
  it('answers every applied parameter, defaults filled, with the URL on the output host', async () => {
    sandbox = await startSandbox();
    const answer = await media().post<VideoBody>('/api/v1/remix', {
      video_url: 'https://cdn.example.com/clip.MP4?sig=1',
      parameters: { playbackSpeed: 1.25, zoomFactor: 1.1, removeAudio: true },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json.data.applied_params).sort()).toEqual(
      [
        'brightness',
        'contrast',
        'saturation',
        'hue',
        'gamma',
        'temperature',
        'noise',
        'sharpness',
        'zoom_factor',
        'device_model',
        'playback_speed',
        'volume',
        'remove_audio',
        'algorithm_fingerprint',
        'hue_shift',
        'blend',
        'bitrate_variation',
        'frame_blending',
        'time_shift',
      ].sort(),
    );
    expect(answer.json.data.applied_params).toMatchObject({
      playback_speed: 1.25,
      zoom_factor: 1.1,
      remove_audio: true,
      brightness: 0,
      contrast: 1,
      algorithm_fingerprint: null,
    });
    expect(answer.json.data.url).toMatch(new RegExp(`^${sandbox.outputUrl}/videos/[0-9a-f]+\\.mp4$`));
    expect(answer.json.metadata.tool_time).toBe(0);
  });

  it.each([
    [{ video_url: 'https://cdn.example.com/clip.gif' }, 'video_url'],
    [{ video_url: 'not a url.mp4' }, 'video_url'],
    [{ video_url: 'https://cdn.example.com/a.mp4', parameters: { playbackSpeed: 9 } }, 'playbackSpeed'],
    [{ video_url: 'https://cdn.example.com/a.mp4', parameters: 'fast' }, 'parameters'],
  ])('answers 400 shape C for %j', async (body, text) => {
    sandbox = await startSandbox();
    const answer = await media().post('/api/v1/remix', body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: expect.stringContaining(text) });
  });

  it('takes a link without a file extension as a video', async () => {
    sandbox = await startSandbox();
    const answer = await media().post<VideoBody>('/api/v1/remix', {
      video_url: 'https://cdn.example.com/download?id=5',
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data.url).toMatch(/\.mp4$/);
  });

  it('answers only after the remix delay, reporting it as tool time', async () => {
    sandbox = await startSandbox({ remixDelayMs: 40 });
    const answer = await media().post<VideoBody>('/api/v1/remix', {
      video_url: 'https://cdn.example.com/a.webm',
    });
    expect(answer.json.metadata.tool_time).toBe(0.04);
  });

  it('keeps a remix pending while other requests are answered, and stop() ends it', async () => {
    sandbox = await startSandbox({ remixDelayMs: 600_000 });
    let settled = false;
    const pending = media()
      .post('/api/v1/remix', { video_url: 'https://cdn.example.com/a.mov' })
      .finally(() => {
        settled = true;
      });
    await expect
      .poll(() => sandbox.requests().map((r) => [r.path, r.status]))
      .toEqual([['/media/api/v1/remix', 0]]);
    expect((await clientFor(sandbox).get('/api/v1/agent/projects')).status).toBe(200);
    expect(settled).toBe(false);
    expect(sandbox.requests()[0]?.status).toBe(0);
    await sandbox.stop();
    await expect(pending).rejects.toThrow();
  });
});
