ALTER TABLE "question_tags" ADD COLUMN "view_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each link takes its question's view count (the column's default, 0, needs no write), before
-- the index is built over the filled rows.
UPDATE "question_tags" qt SET "view_count" = q."view_count" FROM "questions" q
  WHERE q."id" = qt."question_id" AND q."view_count" <> 0;--> statement-breakpoint
CREATE INDEX "question_tags_most_viewed_idx" ON "question_tags" USING btree ("tag_id","view_count" DESC NULLS LAST,"ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE not deleted;
