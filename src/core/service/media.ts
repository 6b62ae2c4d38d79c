/** Media remix (against the media base URL): image rewrite (1 to 20 images) and video remix. */

import { z } from 'zod';
import { ServiceError } from './errors.js';
import { decimal, flag, httpUrl, text, videoUrl } from './input-kit.js';
import { bool, isRecord, num, record, str } from './response-kit.js';
import { bindOperation, type Operation, type OperationContext } from './runner.js';

/**
 * Image parameters seen in the contract. Their ranges and defaults are not documented (the remix ranges in
 * service-notes are the video operation's), so only their type is checked and the service judges the values.
 */
const imageParameterShape = {
  brightness: decimal().optional(),
  contrast: decimal().optional(),
  saturation: decimal().optional(),
  hue: decimal().optional(),
  quality: decimal().optional(),
  zoomFactor: decimal().optional(),
  deviceModel: text().optional(),
};

/** Global image parameters. */
export const imageParametersInput = z.strictObject(imageParameterShape);

/** Input of image remix: one `image_url`, or `images` (1 to 20, each with its own parameters), plus `parameters`. */
export const imageRemixInput = z
  .strictObject({
    image_url: httpUrl().optional(),
    images: z
      .array(z.strictObject({ image_url: httpUrl(), ...imageParameterShape }))
      .min(1, 'must hold from 1 to 20 images')
      .max(20, 'must hold from 1 to 20 images')
      .optional(),
    parameters: imageParametersInput.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.image_url === undefined && value.images === undefined) {
      ctx.addIssue({ code: 'custom', path: ['image_url'], message: 'is required (or give images)' });
    } else if (value.image_url !== undefined && value.images !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['images'], message: 'cannot be given together with image_url' });
    }
  });

/** Input of image remix as callers write it. */
export type ImageRemixInput = z.input<typeof imageRemixInput>;

/** Video parameters, with the ranges documented by service-notes where there are any. */
export const videoParametersInput = z.strictObject({
  playbackSpeed: decimal(0.1, 5).optional(),
  brightness: decimal(-1, 1).optional(),
  contrast: decimal(0, 3).optional(),
  saturation: decimal(0, 3).optional(),
  hue: decimal(-180, 180).optional(),
  zoomFactor: decimal(0.1, 5).optional(),
  volume: decimal(0, 2).optional(),
  removeAudio: flag().optional(),
  gamma: decimal(0.1, 3).optional(),
  temperature: decimal(0.5, 2).optional(),
  noise: decimal(0, 1).optional(),
  sharpness: decimal(0, 3).optional(),
  blend: decimal(0, 1).optional(),
  deviceModel: text().optional(),
  // Request names of the remaining applied_params keys, undocumented: only their type is checked.
  algorithmFingerprint: text().optional(),
  hueShift: decimal().optional(),
  bitrateVariation: decimal().optional(),
  frameBlending: decimal().optional(),
  timeShift: decimal().optional(),
});

/** Input of video remix: the public http(s) URL of a video (MP4, MOV, AVI or WebM), and optional parameters. */
export const videoRemixInput = z.strictObject({
  video_url: videoUrl(),
  parameters: videoParametersInput.optional(),
});

/** Input of video remix as callers write it. */
export type VideoRemixInput = z.input<typeof videoRemixInput>;

/** A processed file: its URL and the parameters applied to it. */
export const processedFileSchema = z.looseObject({
  url: z.string(),
  applied_params: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** A processed image. */
export type ProcessedImage = z.output<typeof processedFileSchema>;

/** The result of an image remix, in the contract's member names. */
export interface ImageRemixResult {
  imageCount: number | null;
  inputImageUrls: string[];
  parameters: Record<string, unknown> | null;
  processedImages: ProcessedImage[];
  appliedParameters: Record<string, unknown>[];
  processingTime: number | null;
  /** `result.metadata.tool_time`, seconds. */
  toolTime: number | null;
}

/** The result of a video remix: the processed file's URL, the applied parameters and the tool time. */
export interface VideoRemixResult {
  url: string;
  applied_params: Record<string, unknown>;
  tool_time: number | null;
}

const imageBody = z.looseObject({
  success: bool,
  message: str,
  data: z.looseObject({
    imageCount: num,
    inputImageUrls: z.array(z.string()).nullable().optional(),
    parameters: record,
    result: z
      .looseObject({
        metadata: z.looseObject({ tool_time: num, count: num }).nullable().optional(),
        data: z
          .looseObject({ results: z.array(processedFileSchema).nullable().optional() })
          .nullable()
          .optional(),
      })
      .nullable()
      .optional(),
    processedImages: z.array(processedFileSchema).nullable().optional(),
    appliedParameters: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
    processingTime: num,
  }),
});

const videoBody = z.looseObject({
  metadata: z.looseObject({ tool_time: num }).nullable().optional(),
  data: processedFileSchema,
});

function decodeImage(body: unknown): ImageRemixResult {
  const r = imageBody.parse(body);
  if (r.success === false) {
    throw new ServiceError({
      code: 'BAD_REQUEST',
      operation: 'media.remixImage',
      status: 200,
      serviceMessage: r.message ?? null,
      message: `The service could not remix the images: ${r.message ?? 'no reason given'}.`,
    });
  }
  const d = r.data;
  return {
    imageCount: d.imageCount ?? null,
    inputImageUrls: d.inputImageUrls ?? [],
    parameters: d.parameters ?? null,
    processedImages: d.processedImages ?? d.result?.data?.results ?? [],
    appliedParameters: d.appliedParameters ?? [],
    processingTime: d.processingTime ?? null,
    toolTime: d.result?.metadata?.tool_time ?? null,
  };
}

function decodeVideo(body: unknown): VideoRemixResult {
  const r = videoBody.parse(isRecord(body) && isRecord(body.response) ? body.response : body);
  return {
    url: r.data.url,
    applied_params: r.data.applied_params ?? {},
    tool_time: r.metadata?.tool_time ?? null,
  };
}

/** The media operations. */
export interface MediaApi {
  /** Rewrites 1 to 20 images (transformations and invisible-watermark removal). */
  remixImage: Operation<typeof imageRemixInput, ImageRemixResult>;
  /** Remixes one video; it can take minutes. */
  remixVideo: Operation<typeof videoRemixInput, VideoRemixResult>;
}

/** Creates the media operations. */
export function createMediaApi(context: OperationContext): MediaApi {
  return {
    remixImage: bindOperation(context, {
      operation: 'media.remixImage',
      input: imageRemixInput,
      request: (input) => ({
        path: '/api/v1/image-rewrite',
        body: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      }),
      decode: decodeImage,
    }),
    remixVideo: bindOperation(context, {
      operation: 'media.remixVideo',
      input: videoRemixInput,
      request: (input) => ({
        path: '/api/v1/remix',
        body: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      }),
      decode: decodeVideo,
    }),
  };
}
