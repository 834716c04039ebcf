ALTER TABLE "tags" ADD COLUMN "question_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "tags" t SET "question_count" = (SELECT count(*) FROM "question_tags" qt WHERE qt."tag_id" = t."id");
