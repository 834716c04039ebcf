-- Suggestions as one types (product.md section 5): a prefix of a tag's name, or of a lower-case
-- username, is a range of these indexes, read in their order, whatever the collation.
CREATE INDEX "accounts_username_prefix_idx" ON "accounts" USING btree ((lower("username") collate "C"));--> statement-breakpoint
CREATE INDEX "tags_name_prefix_idx" ON "tags" USING btree (("name" collate "C"));