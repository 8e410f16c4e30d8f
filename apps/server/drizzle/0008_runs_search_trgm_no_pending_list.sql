-- The reports search's trigram index (0006) without GIN's pending list. With fastupdate on (the
-- default), new rows' trigrams wait in an unsorted pending list until a VACUUM merges them, and
-- every search reads the whole list. PGlite has no autovacuum, so the list never shrank: on
-- 100,000 runs a search's index scan read 339 pending pages (73 ms) instead of 57 (0.8 ms).
-- Runs are inserted one upload at a time, so writing straight into the index costs little.
DO $$
BEGIN
  IF to_regclass('runs_name_trgm_idx') IS NOT NULL THEN
    ALTER INDEX runs_name_trgm_idx SET (fastupdate = off);
    -- Merges what is pending now; fastupdate = off only stops new entries from queueing.
    PERFORM gin_clean_pending_list('runs_name_trgm_idx'::regclass);
  END IF;
END $$;
