/**
 * The REST transport of the Discord client: discord.js's own (undici 6 `request`), with multipart bodies (messages
 * with attachments) encoded to bytes first.
 *
 * Why: Scout also depends on undici 7, which claims undici's process-wide dispatcher slot when it loads; discord.js's
 * undici 6 then dispatches through undici 7, which cannot read the FormData discord.js builds, and an upload fails
 * or hangs (https://github.com/nodejs/undici/issues/5520, https://github.com/discordjs/discord.js/issues/11525).
 * Encoding with Node's own Response (the same implementation as the FormData) leaves a plain byte body that every
 * dispatcher sends as is; JSON requests are untouched.
 */
import { DefaultRestOptions, type RESTOptions } from 'discord.js';

type MakeRequest = RESTOptions['makeRequest'];

/** discord.js's request strategy, with multipart bodies sent as bytes under their own boundary. */
export const makeRequest: MakeRequest = async (url, init) => {
  if (!(init.body instanceof FormData)) return DefaultRestOptions.makeRequest(url, init);
  const encoded = new Response(init.body);
  const body = Buffer.from(await encoded.arrayBuffer());
  const headers = {
    ...(init.headers as Record<string, string> | undefined),
    'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
  return DefaultRestOptions.makeRequest(url, { ...init, body, headers });
};
