/** A command's form: derived from its declaration, opened by a form id, and a submission read back. */
export * from './ids.js';
export * from './spec.js';
export * from './submission.js';
