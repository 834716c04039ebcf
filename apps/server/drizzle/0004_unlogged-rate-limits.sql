-- Rate-limit counters are short-lived and rewritten on every write request: kept out of
-- the write-ahead log, a request's counter update needs no disk flush of its own. After a
-- PostgreSQL crash the table starts empty, which only forgives the current windows.
ALTER TABLE "rate_limits" SET UNLOGGED;
