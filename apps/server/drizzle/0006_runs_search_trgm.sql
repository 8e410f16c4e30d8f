-- Reports search (ILIKE '%…%' on run names) through a trigram index, so a search over 100,000 runs
-- reads the matching rows instead of the whole project. pg_trgm ships with PostgreSQL (trusted
-- since 13) and with PGlite; where a role may not create it, search still works by scanning.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE EXTENSION pg_trgm WITH SCHEMA public;
  END IF;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%); reports search will scan', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  opclass_schema text;
BEGIN
  -- The extension may live in any schema (it is per database); name its operator class fully so
  -- the index works whatever this connection's search_path is.
  SELECT n.nspname INTO opclass_schema
  FROM pg_opclass c
  JOIN pg_namespace n ON n.oid = c.opcnamespace
  JOIN pg_am a ON a.oid = c.opcmethod
  WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
  LIMIT 1;
  IF opclass_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS runs_name_trgm_idx ON runs USING gin (name %I.gin_trgm_ops)', opclass_schema);
  END IF;
END $$;
