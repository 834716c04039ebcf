-- Each username's skeleton (packages/core/src/skeleton.ts): PorpChat names that look like a
-- member's are refused by an index lookup. Adding the stored column computes it for every
-- existing account; the database keeps it for new ones.
ALTER TABLE "accounts" ADD COLUMN "username_skeleton" text GENERATED ALWAYS AS (replace(translate(lower(username), '01l', 'oii'), 'm', 'rn')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "accounts_username_skeleton_idx" ON "accounts" USING btree ("username_skeleton");