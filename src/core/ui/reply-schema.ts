/**
 * A `Reply` as stored (a finished invocation's answer, given again to its duplicates) and read back: JSON, with each
 * file's bytes as base64. What is read back is checked against the model's schema, node by node, so an old or
 * damaged row is never taken for an answer. The schemas are checked against the model's types when compiling: a
 * node type or member added to one and not to the other does not compile.
 */
import { z } from 'zod';
import type { Span } from './markup.js';
import type { Button, FileAttachment, Reply, ReplyNode, ReplyNodeType } from './model.js';

const span = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('plain'), text: z.string() }),
  z.object({ kind: z.enum(['bold', 'italic', 'code']), text: z.string() }),
  z.object({ kind: z.literal('link'), label: z.string(), url: z.string() }),
  z.object({ kind: z.literal('mention'), userId: z.string() }),
]) satisfies z.ZodType<Span>;
const spans = z.array(span);

const button = z.object({
  label: z.string(),
  actionId: z.string(),
  style: z.enum(['primary', 'secondary', 'danger']),
  disabled: z.boolean().exactOptional(),
});
const actions = z.array(button);
const text = z.string().nullable();
const count = z.number().nullable();
const fields = z.array(
  z.object({ label: z.string(), value: z.string(), inline: z.boolean().exactOptional() }),
);

/**
 * One schema per node type of the model (model.ts), combined below: a node type added to, changed in or removed
 * from the model is changed here too, and until it is the checks below name it when compiling.
 */
const NODE_SCHEMAS = [
  z.object({ type: z.literal('text'), spans }),
  z.object({ type: z.literal('fields'), fields }),
  z.object({
    type: z.literal('card'),
    title: z.string(),
    link: z.object({ url: z.string(), label: z.string() }).nullable(),
    subtitle: text,
    body: z.array(z.string()),
    image: z.object({ url: z.string(), alt: z.string() }).nullable(),
    fields,
    footnote: text,
    actions,
  }),
  z.object({
    type: z.literal('notice'),
    level: z.enum(['info', 'success', 'warning', 'error']),
    spans,
    reference: z.string().exactOptional(),
  }),
  z.object({ type: z.literal('buttons'), buttons: actions }),
  z.object({
    type: z.literal('select'),
    placeholder: z.string(),
    actionId: z.string(),
    options: z.array(
      z.object({ label: z.string(), value: z.string(), description: z.string().exactOptional() }),
    ),
    selected: z.string().exactOptional(),
    typed: z.boolean().exactOptional(),
    multiple: z.boolean().exactOptional(),
  }),
  z.object({
    type: z.literal('pager'),
    page: z.number(),
    totalPages: count,
    prevActionId: text,
    nextActionId: text,
    label: z.string().exactOptional(),
    nextCost: z.string().exactOptional(),
  }),
  z.object({ type: z.literal('divider') }),
  z.object({
    type: z.literal('image'),
    url: z.string(),
    alt: z.string(),
    title: z.string().exactOptional(),
  }),
  z.object({
    type: z.literal('code-block'),
    code: z.string(),
    language: z.string().exactOptional(),
    title: z.string().exactOptional(),
  }),
  z.object({
    type: z.literal('table'),
    caption: z.string(),
    columns: z.array(z.object({ label: z.string(), align: z.enum(['left', 'right']) })),
    rows: z.array(z.array(z.object({ text: z.string(), number: count, person: z.string().exactOptional() }))),
  }),
] as const;

/** A file of a stored reply: its bytes as base64. */
const storedFile = z.object({
  name: z.string(),
  mimeType: z.string(),
  bytes: z.base64().transform((value) => Uint8Array.from(Buffer.from(value, 'base64'))),
  title: z.string(),
  display: z.literal('image').exactOptional(),
}) satisfies z.ZodType<FileAttachment>;

/** A node of a stored reply. */
const replyNodeSchema = z.discriminatedUnion('type', NODE_SCHEMAS) satisfies z.ZodType<ReplyNode>;

const replyMembers = {
  nodes: z.array(replyNodeSchema),
  visibility: z.enum(['author', 'channel']),
  replace: z.boolean().exactOptional(),
  files: z.array(storedFile).exactOptional(),
};

/** A stored reply, read back as the model's Reply. */
const storedReplySchema = z.object(replyMembers) satisfies z.ZodType<Reply> & InStep<Drifted>;

/** Whether A and B have the same members (a schema without a model member would drop it when reading). */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Unless<Same, Name> = Same extends true ? never : Name;
type Read = z.output<(typeof NODE_SCHEMAS)[number]>;
/** What has no schema, or one whose members are not the model's: nothing. */
type Drifted =
  | {
      [T in ReplyNodeType]: Unless<SameKeys<Extract<Read, { type: T }>, Extract<ReplyNode, { type: T }>>, T>;
    }[ReplyNodeType]
  | Unless<SameKeys<z.output<typeof button>, Button>, 'button'>
  | Unless<SameKeys<z.output<typeof storedFile>, FileAttachment>, 'file'>
  | Unless<SameKeys<typeof replyMembers, Reply>, 'reply'>;
/** Nothing when nothing drifted; otherwise a member that names what did, for the compile error. */
type InStep<D> = [D] extends [never] ? unknown : { drifted: D };

/** A reply as it is stored: JSON as it is, but for files, whose bytes are written as base64. */
export function storedReply(reply: Reply): unknown {
  if (reply.files === undefined) return reply;
  return {
    ...reply,
    files: reply.files.map((file) => ({
      ...file,
      bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString('base64'),
    })),
  };
}

/** A stored reply read back (parsed JSON); undefined when it is not one (an old or damaged row). */
export function readStoredReply(stored: unknown): Reply | undefined {
  const parsed = storedReplySchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
}
