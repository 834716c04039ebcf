ALTER TABLE "accounts" ADD COLUMN "color_scheme" text DEFAULT 'system' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reading_font" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reduced_motion" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "live_announcements" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "keyboard_shortcuts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_color_scheme_check" CHECK ("accounts"."color_scheme" in ('light', 'dark', 'system'));--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_reading_font_check" CHECK ("accounts"."reading_font" in ('default', 'dyslexia'));