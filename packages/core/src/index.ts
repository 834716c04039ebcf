export * from './limits.ts';
export * from './messages.ts';
export * from './events.ts';
export * from './types.ts';
export * from './rich-text.ts';
export * from './time.ts';
export * from './validation.ts';
export * from './search.ts';
