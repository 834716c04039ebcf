CREATE TABLE "revisions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"question_id" bigint,
	"answer_id" bigint,
	"revision" integer NOT NULL,
	"title" text,
	"text" text NOT NULL,
	"tags" jsonb,
	"edited_by" bigint NOT NULL,
	"edited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	CONSTRAINT "revisions_one_post_check" CHECK (num_nonnulls("revisions"."question_id", "revisions"."answer_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "edited_by" bigint;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "edited_by" bigint;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_edited_by_accounts_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "revisions_question_key" ON "revisions" USING btree ("question_id","revision") WHERE question_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "revisions_answer_key" ON "revisions" USING btree ("answer_id","revision") WHERE answer_id is not null;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_edited_by_accounts_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_edited_by_accounts_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;