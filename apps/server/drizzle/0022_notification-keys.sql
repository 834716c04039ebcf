-- Notifications name their post and actor without foreign keys (schema/notifications.ts): an answer's
-- followers are told in one statement, where three key checks per row cost more than the rows.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_actor_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_question_id_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_thread_id_threads_id_fk";
