DROP INDEX "question_tags_newest_idx";--> statement-breakpoint
DROP INDEX "question_tags_unanswered_idx";--> statement-breakpoint
DROP INDEX "question_tags_active_idx";--> statement-breakpoint
DROP INDEX "questions_newest_idx";--> statement-breakpoint
DROP INDEX "questions_active_idx";--> statement-breakpoint
DROP INDEX "questions_most_viewed_idx";--> statement-breakpoint
DROP INDEX "questions_unanswered_idx";--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "deleted_by" bigint;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "deleted_by" bigint;--> statement-breakpoint
ALTER TABLE "question_tags" ADD COLUMN "deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "deleted_by" bigint;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "hidden_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "closed_by" bigint;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "close_reason" text;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "duplicate_of" bigint;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_deleted_by_accounts_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_deleted_by_accounts_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_deleted_by_accounts_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_closed_by_accounts_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_duplicate_of_questions_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_tags_newest_idx" ON "question_tags" USING btree ("tag_id","ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE not deleted;--> statement-breakpoint
CREATE INDEX "question_tags_unanswered_idx" ON "question_tags" USING btree ("tag_id","ask_date_time" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE answer_count = 0 and not deleted;--> statement-breakpoint
CREATE INDEX "question_tags_active_idx" ON "question_tags" USING btree ("tag_id","last_activity_at" DESC NULLS LAST,"question_id" DESC NULLS LAST) WHERE not deleted;--> statement-breakpoint
CREATE INDEX "questions_newest_idx" ON "questions" USING btree ("ask_date_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "questions_active_idx" ON "questions" USING btree ("last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "questions_most_viewed_idx" ON "questions" USING btree ("view_count" DESC NULLS LAST,"ask_date_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "questions_unanswered_idx" ON "questions" USING btree ("ask_date_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE answer_count = 0 and deleted_at is null;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_close_reason_check" CHECK ("questions"."close_reason" is null or "questions"."close_reason" in ('duplicate', 'off-topic', 'needs-details'));