-- PorpChat's one public room (product.md section 4): it exists from the start.
INSERT INTO "threads" ("kind") VALUES ('porpchat') ON CONFLICT DO NOTHING;
