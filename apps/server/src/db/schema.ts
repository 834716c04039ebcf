/** The whole schema, for the Drizzle client (table files live in ./schema/). */
export * from './schema/accounts.ts';
export * from './schema/questions.ts';
export * from './schema/conversations.ts';
export * from './schema/moderation.ts';
export * from './schema/notifications.ts';
export * from './schema/reputation.ts';
export * from './schema/uploads.ts';
