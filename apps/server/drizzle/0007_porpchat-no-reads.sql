-- PorpChat messages keep no read receipts (product.md section 6: their views are always
-- empty). Members' posts there used to record one for the sender; those go.
DELETE FROM "message_reads" r USING "messages" m, "threads" t
WHERE m."id" = r."message_id" AND t."id" = m."thread_id" AND t."kind" = 'porpchat';
