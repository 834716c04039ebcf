CREATE TABLE "close_votes" (
	"question_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"duplicate_of" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "close_votes_question_id_account_id_pk" PRIMARY KEY("question_id","account_id"),
	CONSTRAINT "close_votes_kind_check" CHECK ("close_votes"."kind" in ('close', 'reopen')),
	CONSTRAINT "close_votes_reason_check" CHECK (("close_votes"."kind" = 'reopen' and "close_votes"."reason" is null) or "close_votes"."reason" in ('duplicate', 'off-topic', 'needs details'))
);
--> statement-breakpoint
CREATE TABLE "privilege_thresholds" (
	"key" text PRIMARY KEY NOT NULL,
	"threshold" integer NOT NULL,
	CONSTRAINT "privilege_thresholds_key_check" CHECK ("privilege_thresholds"."key" in ('flagToHide', 'editAny', 'closeVote')),
	CONSTRAINT "privilege_thresholds_threshold_check" CHECK ("privilege_thresholds"."threshold" between 1 and 1000000)
);
--> statement-breakpoint
CREATE TABLE "reputation_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reputation_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"question_id" bigint,
	"answer_id" bigint,
	"actor_id" bigint,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	CONSTRAINT "reputation_events_reason_check" CHECK ("reputation_events"."reason" in ('questionUpvoted', 'questionDownvoted', 'answerUpvoted', 'answerDownvoted', 'answerAccepted', 'acceptedAnswer', 'downvotedAnswer', 'adjustment')),
	CONSTRAINT "reputation_events_delta_check" CHECK ("reputation_events"."reason" = 'adjustment' or "reputation_events"."delta" between -2 and 15)
);
--> statement-breakpoint
ALTER TABLE "flags" DROP CONSTRAINT "flags_resolution_check";--> statement-breakpoint
ALTER TABLE "moderation_log" DROP CONSTRAINT "moderation_log_action_check";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reputation_sum" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flags" ADD COLUMN "weight" text DEFAULT 'counts' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "close_votes" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "close_votes" ADD CONSTRAINT "close_votes_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "close_votes" ADD CONSTRAINT "close_votes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reputation_events" ADD CONSTRAINT "reputation_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reputation_events_account_idx" ON "reputation_events" USING btree ("account_id","id" DESC NULLS LAST) WHERE not hidden;--> statement-breakpoint
CREATE INDEX "reputation_events_question_idx" ON "reputation_events" USING btree ("question_id","actor_id") WHERE question_id is not null;--> statement-breakpoint
CREATE INDEX "reputation_events_upvotes_idx" ON "reputation_events" USING btree ("account_id","created_at") WHERE reason in ('questionUpvoted', 'answerUpvoted');--> statement-breakpoint
CREATE INDEX "flags_open_by_member_idx" ON "flags" USING btree ("flagged_by") WHERE resolved_at is null;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_weight_check" CHECK ("flags"."weight" in ('hides', 'counts', 'none'));--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_resolution_check" CHECK ("flags"."resolution" is null or "flags"."resolution" in ('dismissed', 'deleted', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_action_check" CHECK (action in ('dismiss', 'approve', 'delete', 'undelete', 'edit', 'close', 'reopen', 'suspend', 'unsuspend', 'role', 'reputation'));--> statement-breakpoint
-- The ledger as the votes and accepts already cast make it (docs/product.md section 13), for
-- a database upgraded from before reputation and for the seeders' bulk data: the rules of
-- events/reputation.ts in one pass. Adjustments are kept; every other row is made again.
-- Upvotes earn 10 each, the first 20 an author received in a UTC day (in the order cast);
-- a downvote costs its post's author 2, and an answer's downvoter 1; nothing for a vote on
-- one's own post. An accepted answer gives its author 15 and the asker 2 (not for one's own
-- answer), dated when the answer was posted. Rows about deleted or held posts are hidden.
CREATE FUNCTION rebuild_reputation() RETURNS void LANGUAGE sql AS $$
  DELETE FROM reputation_events WHERE reason <> 'adjustment';
  WITH cast_votes AS (
    SELECT q.asked_by AS author, v.account_id AS voter, v.value, v.voted_at, q.id AS question_id,
      NULL::bigint AS answer_id, q.deleted_at IS NOT NULL AS hidden
    FROM votes v JOIN questions q ON q.id = v.question_id
    WHERE v.account_id <> q.asked_by
    UNION ALL
    SELECT x.ans_by, v.account_id, v.value, v.voted_at, x.question_id, x.id,
      x.deleted_at IS NOT NULL OR q.deleted_at IS NOT NULL
    FROM answer_votes v JOIN answers x ON x.id = v.answer_id JOIN questions q ON q.id = x.question_id
    WHERE v.account_id <> x.ans_by
  ), ranked AS (
    SELECT c.*, row_number() OVER (
      PARTITION BY c.author, c.value, date_trunc('day', c.voted_at, 'UTC')
      ORDER BY c.voted_at, c.question_id, c.answer_id NULLS FIRST, c.voter
    ) AS nth
    FROM cast_votes c
  )
  INSERT INTO reputation_events (account_id, delta, reason, question_id, answer_id, actor_id, created_at, hidden)
  SELECT author,
    CASE WHEN value = 1 THEN least(10, greatest(0, 200 - 10 * (nth - 1)))::int ELSE -2 END,
    CASE WHEN answer_id IS NULL THEN CASE WHEN value = 1 THEN 'questionUpvoted' ELSE 'questionDownvoted' END
      ELSE CASE WHEN value = 1 THEN 'answerUpvoted' ELSE 'answerDownvoted' END END,
    question_id, answer_id, voter, voted_at, hidden
  FROM ranked
  UNION ALL
  SELECT voter, -1, 'downvotedAnswer', question_id, answer_id, voter, voted_at, hidden
  FROM ranked WHERE answer_id IS NOT NULL AND value = -1;
  INSERT INTO reputation_events (account_id, delta, reason, question_id, answer_id, actor_id, created_at, hidden)
  SELECT x.ans_by, 15, 'answerAccepted', q.id, x.id, q.asked_by, x.ans_date_time,
    x.deleted_at IS NOT NULL OR q.deleted_at IS NOT NULL
  FROM questions q JOIN answers x ON x.id = q.accepted_answer_id WHERE x.ans_by <> q.asked_by
  UNION ALL
  SELECT q.asked_by, 2, 'acceptedAnswer', q.id, x.id, q.asked_by, x.ans_date_time,
    x.deleted_at IS NOT NULL OR q.deleted_at IS NOT NULL
  FROM questions q JOIN answers x ON x.id = q.accepted_answer_id WHERE x.ans_by <> q.asked_by;
  UPDATE accounts a SET reputation_sum = coalesce(s.total, 0)
  FROM accounts b LEFT JOIN (
    SELECT account_id, sum(delta) AS total FROM reputation_events WHERE NOT hidden GROUP BY account_id
  ) s ON s.account_id = b.id
  WHERE a.id = b.id AND a.reputation_sum IS DISTINCT FROM coalesce(s.total, 0);
$$;
--> statement-breakpoint
SELECT rebuild_reputation();
--> statement-breakpoint
-- Flags made before earned flags: spam and rude ones counted toward hiding, as they did then.
UPDATE "flags" SET "weight" = 'none' WHERE "reason" NOT IN ('spam', 'rude');
