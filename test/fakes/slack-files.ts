/**
 * File uploads of the fake Slack, the three steps files.uploadV2 takes
 * (https://docs.slack.dev/messaging/working-with-files#uploading_files): files.getUploadURLExternal names a file and
 * its length and answers an upload URL of the fake; the bytes are posted there (a multipart form, as the Node SDK
 * sends them, or a raw body); files.completeUploadExternal shares the uploaded files in a channel. Every file is kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file uploaded through the fake. */
export interface FakeUpload {
  id: string;
  filename: string;
  /** The length announced to files.getUploadURLExternal. */
  length: number;
  /** The bytes received at the upload URL; null until they arrive. */
  bytes: Buffer | null;
  title: string | null;
  /** Where files.completeUploadExternal shared it; null while it is not shared. */
  channelId: string | null;
  threadTs: string | null;
}

/** The upload side of the fake: its two Web API methods and its upload URL. */
export interface FakeUploads {
  readonly uploads: FakeUpload[];
  /** files.getUploadURLExternal. */
  uploadUrl(args: Record<string, unknown>): Record<string, unknown>;
  /** files.completeUploadExternal: shares uploaded files in a channel (an id such as C…, G… or D…, never a user's). */
  complete(args: Record<string, unknown>): Record<string, unknown>;
  /** Answers a request to an upload URL (`/upload/<id>`) when `path` is one; false otherwise. */
  receive(path: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<boolean>;
}

/** The bytes of an upload: the first file of a multipart form, or the raw body. */
async function uploadedBytes(raw: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (contentType?.startsWith('multipart/form-data') !== true) return raw;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  for (const value of form.values()) {
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  return Buffer.alloc(0);
}

const UPLOAD_PREFIX = '/upload/';

/** Creates the upload side; `base` gives the fake's origin once it listens. */
export function createFakeUploads(base: () => string): FakeUploads {
  const uploads: FakeUpload[] = [];
  return {
    uploads,
    uploadUrl(args) {
      const length = Number(args.length);
      const named = typeof args.filename === 'string' && args.filename !== '';
      if (!named || !Number.isInteger(length) || length < 1) return { ok: false, error: 'invalid_arguments' };
      const id = `F${String(uploads.length + 1).padStart(9, '0')}`;
      const filename = String(args.filename);
      uploads.push({ id, filename, length, bytes: null, title: null, channelId: null, threadTs: null });
      return { ok: true, upload_url: `${base()}${UPLOAD_PREFIX}${id}`, file_id: id };
    },
    complete(args) {
      const listed = Array.isArray(args.files)
        ? (args.files as Array<{ id?: unknown; title?: unknown }>)
        : [];
      const channel = typeof args.channel_id === 'string' ? args.channel_id : null;
      if (listed.length === 0 || (channel !== null && !/^[CGDZ][A-Z0-9]+$/.test(channel))) {
        return { ok: false, error: 'invalid_arguments' };
      }
      const found = listed.map((entry) => uploads.find((u) => u.id === entry.id));
      if (found.some((upload) => upload === undefined || upload.bytes === null)) {
        return { ok: false, error: 'file_not_found' };
      }
      const files = found.map((upload, index) => {
        const done = upload as FakeUpload;
        const title = listed[index]?.title;
        done.title = typeof title === 'string' ? title : done.filename;
        done.channelId = channel;
        done.threadTs = typeof args.thread_ts === 'string' ? args.thread_ts : null;
        return { id: done.id, name: done.filename, title: done.title, size: done.length };
      });
      return { ok: true, files };
    },
    async receive(path, req, raw, res) {
      if (!path.startsWith(UPLOAD_PREFIX)) return false;
      // The upload URL takes the bytes of a file files.getUploadURLExternal announced, at the announced length.
      const upload = uploads.find((u) => u.id === path.slice(UPLOAD_PREFIX.length));
      const bytes = await uploadedBytes(raw, req.headers['content-type']);
      if (req.method !== 'POST' || upload === undefined || bytes.byteLength !== upload.length) {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad upload');
        return true;
      }
      upload.bytes = bytes;
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`OK - ${bytes.byteLength}`);
      return true;
    },
  };
}
