CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"actor_id" bigint NOT NULL,
	"question_id" bigint,
	"answer_id" bigint,
	"comment_id" bigint,
	"thread_id" bigint,
	"message_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"hidden" boolean DEFAULT false NOT NULL,
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('answer', 'comment', 'mention', 'accept', 'followedAnswer'))
);
--> statement-breakpoint
CREATE TABLE "question_follows" (
	"question_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	CONSTRAINT "question_follows_question_id_account_id_pk" PRIMARY KEY("question_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "tag_follows" (
	"account_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	CONSTRAINT "tag_follows_account_id_tag_id_pk" PRIMARY KEY("account_id","tag_id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "unread_notifications" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "digest" text DEFAULT 'weekly' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "last_digest_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "digest_token" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_follows" ADD CONSTRAINT "question_follows_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_follows" ADD CONSTRAINT "question_follows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_follows" ADD CONSTRAINT "tag_follows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_follows" ADD CONSTRAINT "tag_follows_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("account_id","id" DESC NULLS LAST) WHERE not hidden;--> statement-breakpoint
CREATE INDEX "notifications_question_idx" ON "notifications" USING btree ("question_id") WHERE question_id is not null;--> statement-breakpoint
CREATE INDEX "notifications_message_idx" ON "notifications" USING btree ("message_id") WHERE message_id is not null;--> statement-breakpoint
CREATE INDEX "notifications_read_idx" ON "notifications" USING btree ("created_at") WHERE read_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_digest_token_key" ON "accounts" USING btree ("digest_token");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_digest_check" CHECK ("accounts"."digest" in ('off', 'daily', 'weekly'));