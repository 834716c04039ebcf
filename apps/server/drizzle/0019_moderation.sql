CREATE TABLE "flags" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "flags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"target_type" text NOT NULL,
	"target_id" bigint NOT NULL,
	"flagged_by" bigint NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	CONSTRAINT "flags_target_type_check" CHECK (target_type in ('question', 'answer', 'comment', 'message')),
	CONSTRAINT "flags_reason_check" CHECK ("flags"."reason" in ('spam', 'rude', 'off-topic', 'other')),
	CONSTRAINT "flags_resolution_check" CHECK ("flags"."resolution" is null or "flags"."resolution" in ('dismissed', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "moderation_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "moderation_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"moderator_id" bigint NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" bigint NOT NULL,
	"subject_id" bigint,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_log_target_type_check" CHECK (target_type in ('question', 'answer', 'comment', 'message', 'account')),
	CONSTRAINT "moderation_log_action_check" CHECK (action in ('dismiss', 'approve', 'delete', 'undelete', 'edit', 'close', 'reopen', 'suspend', 'unsuspend', 'role'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deleted_by" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "held_accepted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_flagged_by_accounts_id_fk" FOREIGN KEY ("flagged_by") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_moderator_id_accounts_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_subject_id_accounts_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flags_one_per_member_key" ON "flags" USING btree ("target_type","target_id","flagged_by");--> statement-breakpoint
CREATE INDEX "flags_open_idx" ON "flags" USING btree ("created_at","id") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "moderation_log_subject_idx" ON "moderation_log" USING btree ("subject_id");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_deleted_by_accounts_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answers_awaiting_approval_idx" ON "answers" USING btree ("ans_date_time") WHERE held_for = 'approval';--> statement-breakpoint
CREATE INDEX "questions_awaiting_approval_idx" ON "questions" USING btree ("ask_date_time") WHERE held_for = 'approval';--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_held_for_check" CHECK ("messages"."held_for" is null or ("messages"."held_for" in ('flags', 'approval') and "messages"."deleted_at" is not null and "messages"."deleted_by" is null));--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_held_for_check" CHECK ("answers"."held_for" is null or ("answers"."held_for" in ('flags', 'approval') and "answers"."deleted_at" is not null and "answers"."deleted_by" is null));--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_held_for_check" CHECK ("comments"."held_for" is null or ("comments"."held_for" in ('flags', 'approval') and "comments"."deleted_at" is not null and "comments"."deleted_by" is null));--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_held_for_check" CHECK ("questions"."held_for" is null or ("questions"."held_for" in ('flags', 'approval') and "questions"."deleted_at" is not null and "questions"."deleted_by" is null));