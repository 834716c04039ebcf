CREATE TABLE "view_ranks" (
	"question_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"ask_date_time" timestamp with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "view_ranks_question_id_tag_id_pk" PRIMARY KEY("question_id","tag_id")
);
--> statement-breakpoint
-- Every question's row for the whole list (tag 0) and one per tag it carries, with the keys
-- it has now, before the index is built over them (schema: view_ranks).
INSERT INTO "view_ranks" ("question_id", "tag_id", "view_count", "ask_date_time", "deleted")
  SELECT q."id", 0, q."view_count", q."ask_date_time", q."deleted_at" IS NOT NULL FROM "questions" q
  UNION ALL
  SELECT q."id", qt."tag_id", q."view_count", q."ask_date_time", qt."deleted"
  FROM "question_tags" qt JOIN "questions" q ON q."id" = qt."question_id";--> statement-breakpoint
DROP INDEX "question_tags_most_viewed_idx";--> statement-breakpoint
DROP INDEX "questions_most_viewed_idx";--> statement-breakpoint
ALTER TABLE "view_ranks" ADD CONSTRAINT "view_ranks_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "view_ranks_order_idx" ON "view_ranks" USING btree ("tag_id","view_count" DESC NULLS LAST,"ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE not deleted;--> statement-breakpoint
ALTER TABLE "question_tags" DROP COLUMN "view_count";