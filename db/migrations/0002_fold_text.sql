-- bl_fold: text as search compares it, on both sides: what is indexed (the search vectors and name and
-- title trigram indexes of jobs and candidates) and what is asked (core/text-search.ts `foldText`, the
-- same steps in JavaScript). Compatibility decomposition (NFKD) turns full-width letters into plain ones
-- (ＪＡＶＡ → JAVA) and accented letters into a letter and its accent, and the accents (combining
-- marks U+0300–U+036F) are dropped: Tomás is Tomas, Müller is Muller. Built-in functions only
-- (normalize and regexp_replace are IMMUTABLE), so it works alike on PostgreSQL and the embedded
-- PGlite, with no extension; a null is the empty text, as the vectors' coalesce(…, '') were.
CREATE OR REPLACE FUNCTION bl_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT regexp_replace(normalize(coalesce($1, ''), NFKD), '[\u0300-\u036f]', '', 'g') $$;
