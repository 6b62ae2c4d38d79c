/**
 * Image and video remix under the media base (shape C errors). Remix is free in the sandbox: the contract's
 * pricing table does not price it. Answers come after the configured processing delay.
 */
import { hashString } from '../random.js';
import { SandboxHttpError } from '../server/http.js';
import { isObject } from '../server/input.js';
import type { Operation } from '../server/router.js';

/** Most images per image remix. */
export const MAX_IMAGES = 20;

type ParamSpec =
  | readonly [name: string, min: number, max: number]
  | readonly [name: string, kind: 'string' | 'boolean'];

/** Image parameters seen; ranges follow the older documented remix ranges where names coincide. */
const IMAGE_PARAMS: readonly ParamSpec[] = [
  ['brightness', -1, 1],
  ['contrast', 0, 3],
  ['saturation', 0, 3],
  ['hue', -180, 180],
  ['quality', 1, 100],
  ['zoomFactor', 0.1, 5],
  ['deviceModel', 'string'],
];

/** Video parameters: request name, applied_params key, default, and the spec of accepted values. */
const VIDEO_PARAMS: readonly [ParamSpec, string, number | string | boolean | null][] = [
  [['brightness', -1, 1], 'brightness', 0],
  [['contrast', 0, 3], 'contrast', 1],
  [['saturation', 0, 3], 'saturation', 1],
  [['hue', -180, 180], 'hue', 0],
  [['gamma', 0.1, 3], 'gamma', 1],
  [['temperature', 0.5, 2], 'temperature', 1],
  [['noise', 0, 1], 'noise', 0],
  [['sharpness', 0, 3], 'sharpness', 1],
  [['zoomFactor', 0.1, 5], 'zoom_factor', 1],
  [['deviceModel', 'string'], 'device_model', 'iPhone 15 Pro'],
  [['playbackSpeed', 0.1, 5], 'playback_speed', 1],
  [['volume', 0, 2], 'volume', 1],
  [['removeAudio', 'boolean'], 'remove_audio', null],
  [['algorithmFingerprint', 'string'], 'algorithm_fingerprint', null],
  [['hueShift', -180, 180], 'hue_shift', 0],
  [['blend', 0, 1], 'blend', 0],
  [['bitrateVariation', 0, 1], 'bitrate_variation', 0],
  [['frameBlending', 0, 1], 'frame_blending', 0],
  [['timeShift', -10, 10], 'time_shift', 0],
];

function renamed(spec: ParamSpec, name: string): ParamSpec {
  return spec.length === 3 ? [name, spec[1], spec[2]] : [name, spec[1]];
}

const bad = (message: string) => new SandboxHttpError(400, message);

function checkValue(spec: ParamSpec, value: unknown, where: string): number | string | boolean {
  const [name, a, b] = spec;
  if (a === 'string') {
    if (typeof value !== 'string' || value.trim() === '')
      throw bad(`${where}${name} must be a non-empty string`);
    return value;
  }
  if (a === 'boolean') {
    if (typeof value !== 'boolean') throw bad(`${where}${name} must be true or false`);
    return value;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < a || value > (b as number)) {
    throw bad(`${where}${name} must be a number between ${a} and ${b}`);
  }
  return value;
}

/** Validates a parameter object against specs; unknown names are refused so that typos do not pass silently. */
function readParams(
  value: unknown,
  specs: readonly ParamSpec[],
  where: string,
  skip: readonly string[] = [],
) {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw bad(`${where}parameters must be an object`);
  const out: Record<string, number | string | boolean> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (skip.includes(name) || raw === null) continue;
    const spec = specs.find((s) => s[0] === name);
    if (!spec) throw bad(`${where}unknown parameter '${name}'; known: ${specs.map((s) => s[0]).join(', ')}`);
    out[name] = checkValue(spec, raw, where);
  }
  return out;
}

function readUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw bad(`${name} is required: a public http(s) URL`);
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('protocol');
    return value;
  } catch {
    throw bad(`${name} must be a public http(s) URL, got '${value}'`);
  }
}

/** The remix operations. */
export function mediaOperations(): Operation[] {
  let serial = 0;
  const fileName = (seed: string) => {
    serial++;
    return `${hashString(`${seed}#${serial}`).toString(16).padStart(8, '0')}${serial.toString(16).padStart(4, '0')}`;
  };
  return [
    {
      method: 'POST',
      pattern: '/media/api/v1/image-rewrite',
      family: 'C',
      handle: ({ body, media }) => {
        const raw = body();
        if (!isObject(raw)) throw bad('Send a JSON object with image_url or images');
        const global = readParams(raw.parameters, IMAGE_PARAMS, '');
        let inputs: { url: string; own: Record<string, number | string | boolean> }[];
        if (raw.image_url !== undefined && raw.images !== undefined)
          throw bad('Send either image_url or images, not both');
        if (raw.images !== undefined) {
          if (!Array.isArray(raw.images) || raw.images.length < 1 || raw.images.length > MAX_IMAGES) {
            throw bad(`images must be an array of 1 to ${MAX_IMAGES} objects`);
          }
          inputs = raw.images.map((image, i) => {
            const where = `images[${i}].`;
            if (!isObject(image)) throw bad(`${where} must be an object with image_url`);
            const own = {
              ...readParams(image, IMAGE_PARAMS, where, ['image_url', 'parameters']),
              ...readParams(image.parameters, IMAGE_PARAMS, where),
            };
            return { url: readUrl(image.image_url, `${where}image_url`), own };
          });
        } else inputs = [{ url: readUrl(raw.image_url, 'image_url'), own: {} }];

        const results = inputs.map(({ url, own }) => {
          const applied = { ...global, ...own };
          return {
            url: media.publish('image', `${fileName(url + JSON.stringify(applied))}.png`),
            applied_params: applied,
          };
        });
        const toolTime = media.delayMs / 1000;
        return {
          delayMs: media.delayMs,
          body: {
            success: true,
            message: `${results.length} image${results.length === 1 ? '' : 's'} processed`,
            data: {
              imageCount: results.length,
              inputImageUrls: inputs.map((i) => i.url),
              parameters: isObject(raw.parameters) ? raw.parameters : {},
              result: { metadata: { tool_time: toolTime, count: results.length }, data: { results } },
              processedImages: results,
              appliedParameters: results.map((r) => r.applied_params),
              processingTime: Math.round((toolTime + 0.005 * results.length) * 1000) / 1000,
            },
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/media/api/v1/remix',
      family: 'C',
      handle: ({ body, media }) => {
        const raw = body();
        if (!isObject(raw)) throw bad('Send a JSON object with video_url');
        const url = readUrl(raw.video_url, 'video_url');
        // The service judges what the URL serves; here a file name with another extension stands for a file that
        // is no video, and a link without one (`/download?id=5`) for a video.
        const extension = /\.(\w+)$/.exec(new URL(url).pathname)?.[1];
        if (extension !== undefined && !/^(mp4|mov|avi|webm)$/i.test(extension)) {
          throw bad('video_url must point to an MP4, MOV, AVI or WebM file');
        }
        // Request names travel camelCase; the snake_case names of applied_params are accepted too.
        const specs = VIDEO_PARAMS.flatMap(([spec, key]) => [spec, renamed(spec, key)]);
        const given = readParams(raw.parameters, specs, 'parameters.');
        const applied: Record<string, number | string | boolean | null> = {};
        for (const [[name], key, fallback] of VIDEO_PARAMS)
          applied[key] = given[name] ?? given[key] ?? fallback;
        return {
          delayMs: media.delayMs,
          body: {
            metadata: { tool_time: media.delayMs / 1000 },
            data: {
              url: media.publish('video', `${fileName(url + JSON.stringify(applied))}.mp4`),
              applied_params: applied,
            },
          },
        };
      },
    },
  ];
}
