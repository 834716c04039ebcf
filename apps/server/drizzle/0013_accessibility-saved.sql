ALTER TABLE "accounts" ADD COLUMN "accessibility_saved_at" timestamp with time zone;--> statement-breakpoint
-- Accounts whose settings differ from the defaults have saved them; the others show unchosen selectors until they do.
UPDATE "accounts" SET "accessibility_saved_at" = now() WHERE "low_vision" OR "color_blindness" <> 'none';
