CREATE TABLE "upload_uses" (
	"post_kind" text NOT NULL,
	"post_id" bigint NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "upload_uses_post_kind_post_id_name_pk" PRIMARY KEY("post_kind","post_id","name"),
	CONSTRAINT "upload_uses_post_kind_check" CHECK ("upload_uses"."post_kind" in ('question', 'answer'))
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"use_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "uploads_use_count_check" CHECK ("uploads"."use_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "images" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "images" jsonb;--> statement-breakpoint
ALTER TABLE "upload_uses" ADD CONSTRAINT "upload_uses_name_uploads_name_fk" FOREIGN KEY ("name") REFERENCES "public"."uploads"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_uses_name_idx" ON "upload_uses" USING btree ("name");--> statement-breakpoint
CREATE INDEX "uploads_unused_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."use_count" = 0;