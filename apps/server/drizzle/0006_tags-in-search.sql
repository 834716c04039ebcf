-- The search vector also holds one lexeme per tag, '[t<tag id>]' (src/db/search-vector.ts),
-- so "[tag] word" is one full-text condition. Tags are not part of the row, so the column is
-- no longer generated: the question's insert writes it (questions are not edited).
-- The index is dropped and rebuilt around the rewrite: one bulk build instead of a million
-- pending-list insertions.
ALTER TABLE "questions" ALTER COLUMN "search" DROP EXPRESSION;
--> statement-breakpoint
DROP INDEX "questions_search_idx";
--> statement-breakpoint
UPDATE "questions" q SET "search" = q."search" || array_to_tsvector(
  array(SELECT '[t' || qt."tag_id" || ']' FROM "question_tags" qt WHERE qt."question_id" = q."id"));
--> statement-breakpoint
CREATE INDEX "questions_search_idx" ON "questions" USING gin ("search") WITH (gin_pending_list_limit = 128);
