DROP INDEX "question_tags_tag_idx";--> statement-breakpoint
ALTER TABLE "question_tags" ADD COLUMN "ask_date_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "question_tags" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "question_tags" ADD COLUMN "answer_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "question_tags" qt SET "ask_date_time" = q."ask_date_time", "last_activity_at" = q."last_activity_at", "answer_count" = q."answer_count" FROM "questions" q WHERE q."id" = qt."question_id";--> statement-breakpoint
ALTER TABLE "question_tags" ALTER COLUMN "ask_date_time" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "question_tags" ALTER COLUMN "last_activity_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "question_tags_newest_idx" ON "question_tags" USING btree ("tag_id","ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "question_tags_unanswered_idx" ON "question_tags" USING btree ("tag_id","ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE answer_count = 0;--> statement-breakpoint
CREATE INDEX "question_tags_active_idx" ON "question_tags" USING btree ("tag_id","last_activity_at" DESC NULLS LAST,"question_id" DESC NULLS LAST);
