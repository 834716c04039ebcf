-- A forum's discussion page finds its forum by thread id (trust #15 item 5: the forum list is paged).
CREATE UNIQUE INDEX "forums_thread_key" ON "forums" USING btree ("thread_id");