CREATE TABLE "question_counters" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unanswered" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "question_counters_single_row" CHECK ("question_counters"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "question_counters" ("id", "total", "unanswered")
SELECT 1, count(*), count(*) FILTER (WHERE "answer_count" = 0) FROM "questions";
