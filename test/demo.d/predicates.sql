-- The demo's queries: a LIKE, ILIKE, regex, LIKE ANY and NOT LIKE
-- predicate each over demo.comments.body (data.sql), with a label.  Also
-- read by the sharding test and benchmark (test/shard), so that their
-- figures compare with the demo's.
CREATE TEMP TABLE demo_queries (ord int, label text, predicate text);
INSERT INTO demo_queries VALUES
  (1, 'two words',    $p$body LIKE '%special%requests%'$p$),
  (2, 'rare phrase',  $p$body LIKE '%Customer%Complaints%'$p$),
  (3, 'underscore',   $p$body LIKE '%p_nto b%'$p$),
  (4, 'ILIKE',        $p$body ILIKE '%ZÜRICH CAFÉ%'$p$),
  (5, 'regex',        $p$body ~ 'quick(ly)? (bold|even) fox'$p$),
  (6, 'LIKE ANY',     $p$body LIKE ANY (ARRAY['%theodolites%sleep%', '%naïve café%'])$p$),
  (7, 'NOT LIKE',     $p$body NOT LIKE '%a%'$p$);
