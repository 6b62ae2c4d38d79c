/**
 * `/scout remix`: image and video remixing (transformations plus invisible-watermark removal). Not priced by the
 * contract, but it changes state and takes time: duplicates run once, and a progress message shows it is working.
 */
import { z } from 'zod';
import type { ParamTable } from '../core/command/params.js';
import { fieldName } from '../core/command/people-names.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import type { ImageRemixResult, VideoRemixResult } from '../core/service/index.js';
import { videoRemixInput } from '../core/service/index.js';
import { videoParametersInput } from '../core/service/media.js';
import {
  FIELDS_MAX,
  fields,
  type Inline,
  link,
  notice,
  plainText,
  type Reply,
  type ReplyNode,
  reply,
  TEXT_MAX,
  text,
} from '../core/ui/index.js';
import { IMAGE_PARAMS, imageCommandInput, MAX_IMAGES } from './remix/image-input.js';

const COST = 'free (remix is not priced by the service)';

/** Images per text node: five result lines stay inside the text limit unless their URLs are very long. */
const IMAGES_PER_TEXT = 5;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const number = (description: string, example: string, aliases: string[] = []) => ({
  kind: 'number' as const,
  description,
  example,
  aliases,
});

/** Video parameters as typed in chat; ranges are the documented ones, checked by the client's schema. */
const VIDEO_PARAMS: ParamTable = {
  url: {
    kind: 'text',
    positional: true,
    required: true,
    aliases: ['video', 'videoUrl', 'video_url'],
    description: 'Public http(s) URL of an MP4, MOV, AVI or WebM video; the service checks what it serves.',
    example: 'https://example.com/clip.mp4',
  },
  playbackSpeed: number('Playback speed, 0.1 to 5 (1 leaves it).', '1.05', ['speed']),
  brightness: number('Brightness, -1 to 1.', '0.1'),
  contrast: number('Contrast, 0 to 3 (1 leaves it).', '1.1'),
  saturation: number('Saturation, 0 to 3 (1 leaves it).', '1.2'),
  hue: number('Hue rotation in degrees, -180 to 180.', '5'),
  zoomFactor: number('Zoom, 0.1 to 5 (1 leaves it).', '1.05', ['zoom']),
  volume: number('Volume, 0 to 2 (1 leaves it).', '0.8'),
  removeAudio: {
    kind: 'boolean',
    aliases: ['mute', 'noAudio'],
    description: 'Drop the sound track (yes/no).',
  },
  gamma: number('Gamma, 0.1 to 3.', '1.1'),
  temperature: number('Colour temperature, 0.5 to 2.', '1.1', ['temp']),
  noise: number('Added noise, 0 to 1.', '0.05'),
  sharpness: number('Sharpness, 0 to 3.', '1.2'),
  blend: number('Blend, 0 to 1.', '0.1'),
  deviceModel: {
    kind: 'text',
    aliases: ['device'],
    description: 'Camera device the output claims.',
    example: '"iPhone 15 Pro"',
  },
  algorithmFingerprint: {
    kind: 'text',
    aliases: ['fingerprint'],
    description: 'Fingerprint algorithm name.',
  },
  hueShift: number('Hue shift.', '3'),
  bitrateVariation: number('Bitrate variation.', '0.1', ['bitrate']),
  frameBlending: number('Frame blending.', '0.1'),
  timeShift: number('Time shift.', '0.5'),
};

const videoCommandInput = z
  .object({ url: videoRemixInput.shape.video_url, ...videoParametersInput.shape })
  .transform(({ url, ...given }) => {
    const parameters = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    return { video_url: url, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
  });

/**
 * What people call a parameter the service says it applied (`zoomFactor`, `zoom_factor`): the option that sets it
 * (`zoom`), else its words (`zoom factor`).
 */
function appliedName(table: ParamTable, key: string): string {
  const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return fieldName(table, camel) ?? fieldName(table, key) ?? key.replace(/_/g, ' ');
}

/** Applied parameters as short `name value` text, named as people type them; nulls (not applied) are left out. */
function appliedText(applied: Readonly<Record<string, unknown>> | null | undefined): string | null {
  const entries = Object.entries(applied ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (entries.length === 0) return null;
  return entries
    .map(
      ([key, value]) =>
        `${appliedName(IMAGE_PARAMS, key)} ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    )
    .join(' · ');
}

const seconds = (value: number | null) => (value === null ? '' : ` in ${Number(value.toFixed(2))} s`);

function imageResult(result: ImageRemixResult, count: number): Reply {
  const images = result.processedImages;
  if (images.length === 0) {
    return reply([notice('warning', `The service finished but returned no images for the ${count} sent.`)]);
  }
  const lines = images.map((image, i): Inline[] => {
    const source = result.inputImageUrls[i];
    const applied = appliedText(image.applied_params ?? result.appliedParameters[i]);
    return [
      `${i + 1}. `,
      link(image.url, image.url),
      source === undefined ? '' : '\n   from ',
      source === undefined ? '' : link(source, source),
      applied === null ? '' : `\n   applied: ${applied}`,
    ];
  });
  const done = result.processingTime ?? result.toolTime;
  // Long source URLs cannot be cut (a cut URL points elsewhere), so such results get a text node each.
  const perText = lines.every((parts) => plainText(parts).length <= TEXT_MAX / IMAGES_PER_TEXT)
    ? IMAGES_PER_TEXT
    : 1;
  return reply(
    [
      notice('success', `Remixed ${images.length} image${images.length === 1 ? '' : 's'}${seconds(done)}.`),
      ...chunk(lines, perText).map((run) =>
        text(...run.flatMap((parts, i) => (i === 0 ? parts : ['\n\n', ...parts]))),
      ),
    ],
    { visibility: 'channel' },
  );
}

function videoResult(result: VideoRemixResult): Reply {
  const applied = Object.entries(result.applied_params).filter(([, v]) => v !== null && v !== undefined);
  const nodes: ReplyNode[] = [
    // The link is on the first line too: a repeat of the command quotes that line, so it keeps the result.
    notice('success', [
      `Video remixed${seconds(result.tool_time)}: `,
      link('open the result', result.url),
      '.',
    ]),
    ...chunk(applied, FIELDS_MAX).map((group) =>
      fields(
        group.map(([key, value]) => ({
          label: appliedName(VIDEO_PARAMS, key),
          value: typeof value === 'number' || typeof value === 'string' ? value : JSON.stringify(value),
          inline: true,
        })),
      ),
    ),
  ];
  return reply(nodes, { visibility: 'channel' });
}

/** The remix family. */
export const remixFamily = defineFamily({
  name: 'remix',
  description: 'Remix images and videos from public URLs: colour, zoom, speed, watermark removal.',
  commands: [
    defineCommand({
      name: 'image',
      working: 'Remixing the image…',
      description: `Remix 1-${MAX_IMAGES} images; options apply to all, image2.brightness:0.3 to one image.`,
      params: {
        urls: {
          kind: 'text',
          rest: true,
          aliases: ['url', 'image', 'imageUrl', 'image_url'],
          description: `Image URLs, 1-${MAX_IMAGES}; one image's option: image<N>.<option>:<value>, e.g. image2.hue:10.`,
          example: 'https://example.com/a.jpg',
        },
        ...IMAGE_PARAMS,
      },
      schema: imageCommandInput,
      examples: [
        'remix image https://example.com/a.jpg brightness:0.2',
        'remix image https://example.com/a.jpg https://example.com/b.png contrast:1.2 image2.brightness:-0.3 image2.quality:90',
        'remix image https://example.com/a.jpg zoom:1.1 device:"iPhone 15 Pro"',
      ],
      cost: COST,
      mutates: true,
      async run(ctx, input) {
        await ctx.progress(
          reply([notice('info', `Remixing ${input.count} image${input.count === 1 ? '' : 's'}…`)]),
        );
        const { data } = await ctx.service.media.remixImage(input.body);
        return imageResult(data, input.count);
      },
    }),
    defineCommand({
      name: 'video',
      working: 'Remixing the video…',
      description: 'Remix one MP4, MOV, AVI or WebM video: speed, colour, zoom, audio; takes minutes.',
      params: VIDEO_PARAMS,
      schema: videoCommandInput,
      examples: [
        'remix video https://example.com/clip.mp4 speed:1.05 zoom:1.1',
        'remix video https://example.com/clip.mov brightness:0.1 saturation:1.2 mute:yes',
      ],
      cost: COST,
      mutates: true,
      async run(ctx, input) {
        await ctx.progress(reply([notice('info', 'Remixing the video… this can take a few minutes.')]));
        const { data } = await ctx.service.media.remixVideo(input);
        return videoResult(data);
      },
    }),
  ],
});
