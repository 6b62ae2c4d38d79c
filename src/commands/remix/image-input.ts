/**
 * The chat syntax of an image remix: image URLs as bare words, global parameters as `key:value`, and parameters
 * of one image as `image<N>.<key>:<value>` (`image2.brightness:0.3`; `2.brightness:0.3` works too). The result is
 * the service body, validated by the client's own schema, with problems named the way they were typed.
 */
import { z } from 'zod';
import { coerceParam, ParamError, type ParamTable, resolveKey } from '../../core/command/params.js';
import { didYouMean, matchChoice } from '../../core/command/suggest.js';
import { TokenizeError, tokenize } from '../../core/command/tokenize.js';
import { imageParametersInput, imageRemixInput } from '../../core/service/media.js';

/** Most images in one remix (the contract's batch limit). */
export const MAX_IMAGES = 20;

/**
 * The image parameters as typed in chat, global or per image; keys are the contract's names. Their ranges are not
 * documented: numbers are sent as given, and the service's answer says when one is out of its range.
 */
export const IMAGE_PARAMS: ParamTable = {
  brightness: { kind: 'number', description: 'Brightness (a number).', example: '0.2' },
  contrast: { kind: 'number', description: 'Contrast (a number).', example: '1.2' },
  saturation: { kind: 'number', description: 'Saturation (a number).', example: '1.1' },
  hue: { kind: 'number', description: 'Hue (a number).', example: '10' },
  quality: { kind: 'number', description: 'Output quality (a number).', example: '90' },
  zoomFactor: {
    kind: 'number',
    aliases: ['zoom'],
    description: 'Zoom (a number).',
    example: '1.1',
  },
  deviceModel: {
    kind: 'text',
    aliases: ['device'],
    description: 'Camera device the output claims, e.g. "iPhone 15 Pro".',
    example: '"iPhone 15 Pro"',
  },
};

/** `image2.brightness:0.3`, `img2.zoom=1.1`, `2.hue:-10`. */
const PER_IMAGE = /^(?:image|img)?(\d{1,3})\.([A-Za-z_-]{1,40})[:=]([\s\S]*)$/i;

/** What the command receives: every bare word (or, from a platform form, one text of them), and the globals. */
const rawInput = z.object({
  urls: z.union([z.array(z.string()), z.string()]).optional(),
  ...imageParametersInput.shape,
});

/** The validated request: the body to send and how many images it holds. */
export interface ImageRequest {
  body: z.output<typeof imageRemixInput>;
  count: number;
}

/** Names a client-schema issue path the way the person typed it: `images.1.hue` reads `image2.hue`. */
function typedPath(path: readonly PropertyKey[]): string[] {
  const [head, index, key] = path.map(String);
  if (head === 'images' && index !== undefined) {
    const image = `image${Number(index) + 1}`;
    return key === undefined || key === 'image_url' ? [image] : [`${image}.${key}`];
  }
  if (head === 'image_url') return ['image1'];
  if (head === 'parameters' && index !== undefined) return [index];
  return path.map(String);
}

/** The words of the urls option: a list from the text syntax, or one text typed into a platform form. */
function wordsOf(value: string | string[] | undefined, ctx: z.RefinementCtx): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  try {
    return tokenize(value).map((token) => (token.key === null ? token.value : token.source));
  } catch (error) {
    if (!(error instanceof TokenizeError)) throw error;
    ctx.addIssue({ code: 'custom', path: ['urls'], message: error.message });
    return [];
  }
}

function words(raw: z.output<typeof rawInput>, ctx: z.RefinementCtx) {
  const urls: string[] = [];
  const own = new Map<number, Record<string, unknown>>();
  for (const word of wordsOf(raw.urls, ctx)) {
    const match = PER_IMAGE.exec(word.trim());
    if (match === null) {
      urls.push(word.trim());
      continue;
    }
    const [, index = '', typedKey = '', value = ''] = match;
    // Issues name the option as typed, with its image (`image2.zoom`).
    const where = `image${Number(index)}`;
    const typed = `${where}.${typedKey}`;
    const key = resolveKey(IMAGE_PARAMS, typedKey);
    const spec = key === null ? undefined : IMAGE_PARAMS[key];
    if (key === null || spec === undefined) {
      const guess = matchChoice(typedKey, Object.keys(IMAGE_PARAMS));
      ctx.addIssue({
        code: 'custom',
        path: [typed],
        message: `is not an image option.${guess.ok ? '' : didYouMean(guess.suggestions)} Known: ${Object.keys(IMAGE_PARAMS).join(', ')}.`,
      });
      continue;
    }
    const params = own.get(Number(index)) ?? {};
    if (key in params) {
      ctx.addIssue({ code: 'custom', path: [typed], message: 'is given twice' });
      continue;
    }
    try {
      Object.assign(params, coerceParam(key, spec, value, typedKey));
      own.set(Number(index), params);
    } catch (error) {
      if (!(error instanceof ParamError)) throw error;
      // The option's message starts with its name as typed: the image goes before it (`image2.hue takes…`).
      ctx.addIssue({ code: 'custom', path: [typed], message: `${where}.${error.message}` });
    }
  }
  return { urls, own };
}

/** Validates the typed words and parameters and builds the service body (single or batch form). */
export const imageCommandInput = rawInput.transform((raw, ctx): ImageRequest => {
  const { urls: _words, ...globals } = raw;
  const { urls, own } = words(raw, ctx);
  if (urls.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['urls'], message: 'Give at least one image URL (http or https).' });
  } else if (urls.length > MAX_IMAGES) {
    ctx.addIssue({
      code: 'custom',
      path: ['urls'],
      message: `A remix takes at most ${MAX_IMAGES} images; ${urls.length} URLs were given.`,
    });
  }
  for (const index of own.keys()) {
    if (urls.length > 0 && (index < 1 || index > urls.length)) {
      const numbered =
        urls.length === 1
          ? 'one URL was given, so the only image is image1'
          : `images are numbered image1 to image${urls.length}, one per URL`;
      ctx.addIssue({
        code: 'custom',
        path: [`image${index}`],
        message: `There is no image${index}: ${numbered}.`,
      });
    }
  }
  if (ctx.issues.length > 0) return z.NEVER;
  const parameters = Object.fromEntries(Object.entries(globals).filter(([, v]) => v !== undefined));
  const withParameters = Object.keys(parameters).length > 0 ? { parameters } : {};
  const candidate =
    urls.length === 1 && own.size === 0
      ? { image_url: urls[0], ...withParameters }
      : { images: urls.map((url, i) => ({ image_url: url, ...own.get(i + 1) })), ...withParameters };
  const parsed = imageRemixInput.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: typedPath(issue.path), message: issue.message });
    }
    return z.NEVER;
  }
  return { body: parsed.data, count: urls.length };
});
