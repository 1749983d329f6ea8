-- pg_trgm backs the trigram (GIN) indexes of the search columns; it must exist before them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
