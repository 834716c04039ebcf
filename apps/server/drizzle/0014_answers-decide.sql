CREATE TABLE "answer_votes" (
	"answer_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"value" smallint NOT NULL,
	"voted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_votes_answer_id_account_id_pk" PRIMARY KEY("answer_id","account_id"),
	CONSTRAINT "answer_votes_value_check" CHECK ("answer_votes"."value" in (-1, 1))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "up_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "down_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "accepted_answer_id" bigint;--> statement-breakpoint
ALTER TABLE "answer_votes" ADD CONSTRAINT "answer_votes_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_votes" ADD CONSTRAINT "answer_votes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_accepted_answer_id_answers_id_fk" FOREIGN KEY ("accepted_answer_id") REFERENCES "public"."answers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_role_check" CHECK ("accounts"."role" in ('member', 'moderator', 'admin'));--> statement-breakpoint
-- An installation that already has accounts gets its admin too: the first account created (product.md section 10).
UPDATE "accounts" SET "role" = 'admin' WHERE "id" = (SELECT min("id") FROM "accounts");
