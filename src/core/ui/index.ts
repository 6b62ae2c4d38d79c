/** The platform-neutral reply model: nodes, builders, cards, formatting, limits and the text renderer. */
export * from './builders.js';
export * from './cards.js';
export * from './files.js';
export * from './form.js';
export * from './format.js';
export * from './json-text.js';
export * from './limits.js';
export * from './markup.js';
export * from './model.js';
export * from './press.js';
export * from './render-text.js';
export * from './table.js';
