/**
 * Files of the fake Discord (https://discord.com/developers/docs/reference#uploading-files): multipart bodies read
 * as discord.js sends them (`payload_json` plus `files[n]` parts), attachments made of those parts as Discord
 * keeps them on a message, and their bytes served from each attachment's URL, as Discord's CDN does.
 */
import type { ServerResponse } from 'node:http';

/** A file sent in a multipart body: its form field (`files[0]`), name, type and bytes. */
export interface FakeFile {
  field: string;
  name: string;
  contentType: string;
  data: Buffer;
}

/** A JSON body, or a multipart one: `payload_json` holds the JSON and each part with a file name is a file. */
export async function readPayload(
  raw: Buffer,
  contentType: string | undefined,
): Promise<{ body: unknown; files: FakeFile[] }> {
  const files: FakeFile[] = [];
  if (contentType?.startsWith('multipart/form-data') !== true) {
    const text = raw.toString('utf8');
    return { body: text === '' ? null : (JSON.parse(text) as unknown), files };
  }
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  let body: unknown = null;
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') body = JSON.parse(value);
      continue;
    }
    const data = Buffer.from(await value.arrayBuffer());
    files.push({ field, name: value.name, contentType: value.type, data });
  }
  return { body, files };
}

/** The attachments of the fake's messages. */
export interface AttachmentStore {
  /**
   * A body with its `attachments` as Discord keeps them: an entry whose id names a part `files[id]` becomes a new
   * attachment (its file kept); an entry with an earlier attachment's id keeps that one; others are dropped.
   */
  resolve(data: Record<string, unknown>, files: readonly FakeFile[]): Record<string, unknown>;
  /** Answers `GET /attachments/<id>/<name>` with the file's bytes; false for any other request. */
  serve(method: string, path: string, res: ServerResponse): boolean;
  /** The file behind an attachment id. */
  file(id: string): FakeFile | undefined;
}

/** Creates the store; `base` gives the fake's origin, `newId` a fresh snowflake. */
export function createAttachmentStore(base: () => string, newId: () => string): AttachmentStore {
  const attachments = new Map<string, { meta: Record<string, unknown>; file: FakeFile }>();
  return {
    resolve(data, files) {
      if (!Array.isArray(data.attachments) && files.length === 0) return data;
      const listed: Array<Record<string, unknown>> = Array.isArray(data.attachments)
        ? (data.attachments as Array<Record<string, unknown>>)
        : files.map((_, index) => ({ id: index }));
      const kept = listed.flatMap((entry) => {
        const ref = String(entry.id);
        const file = files.find((f) => f.field === `files[${ref}]`);
        if (file === undefined) {
          const earlier = attachments.get(ref)?.meta;
          return earlier === undefined ? [] : [earlier];
        }
        const id = newId();
        const url = `${base()}/attachments/${id}/${encodeURIComponent(file.name)}`;
        const meta = {
          id,
          filename: typeof entry.filename === 'string' ? entry.filename : file.name,
          size: file.data.byteLength,
          url,
          proxy_url: url,
          ...(file.contentType === '' ? {} : { content_type: file.contentType }),
          ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
        };
        attachments.set(id, { meta, file });
        return [meta];
      });
      return { ...data, attachments: kept };
    },
    serve(method, path, res) {
      const download = /^\/attachments\/(\d+)\//.exec(path);
      if (method !== 'GET' || download === null) return false;
      const found = attachments.get(download[1] as string);
      if (found === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found","code":0}');
        return true;
      }
      res.writeHead(200, { 'content-type': found.file.contentType || 'application/octet-stream' });
      res.end(found.file.data);
      return true;
    },
    file: (id) => attachments.get(id)?.file,
  };
}
