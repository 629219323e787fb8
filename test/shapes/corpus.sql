-- The SQL shapes applications send for substring and pattern searches,
-- as their ORMs write them on PostgreSQL (test/shapes/run runs each with
-- gpulike on and off).  An entry is a "-- shape: NAME" line, then its
-- statements; the last one returns the rows compared, and the last
-- SELECT, UPDATE, DELETE, DECLARE or EXECUTE is the one whose plan must
-- use the GpuLike scan.  The tables: docs (id, title varchar(120), body
-- text, data jsonb, n int, tag text), body and title cached; words (id,
-- w), blocklist (id, pattern).

-- shape: literal LIKE contains
SELECT id FROM docs WHERE body LIKE '%quick brown%';
-- shape: literal ILIKE contains
SELECT id FROM docs WHERE body ILIKE '%QUICK brown%';
-- shape: literal regex
SELECT id FROM docs WHERE body ~ 'fox (jumps|runs)';
-- shape: literal SIMILAR TO
SELECT id FROM docs WHERE title SIMILAR TO '%(lazy|quick)%';
-- shape: literal count
SELECT count(*) FROM docs WHERE body LIKE '%lazy dog%';

-- shape: Django contains
SELECT "docs"."id", "docs"."title" FROM "docs" WHERE "docs"."body"::text LIKE '%quick%' ORDER BY "docs"."id" LIMIT 21;
-- shape: Django icontains
SELECT "docs"."id" FROM "docs" WHERE UPPER("docs"."body"::text) LIKE UPPER('%Quick%');
-- shape: Django startswith
SELECT "docs"."id" FROM "docs" WHERE "docs"."title"::text LIKE 'the%';
-- shape: Django istartswith
SELECT "docs"."id" FROM "docs" WHERE UPPER("docs"."title"::text) LIKE UPPER('The%');
-- shape: Django endswith
SELECT "docs"."id" FROM "docs" WHERE "docs"."body"::text LIKE '%dog';
-- shape: Django regex
SELECT "docs"."id" FROM "docs" WHERE "docs"."body"::text ~ 'qu[a-z]ck';
-- shape: Django iregex
SELECT "docs"."id" FROM "docs" WHERE "docs"."body"::text ~* 'QUICK (BROWN|RED)';
-- shape: Django icontains, server-side bound parameter
PREPARE django_icontains(text) AS SELECT "docs"."id" FROM "docs" WHERE UPPER("docs"."body"::text) LIKE UPPER($1);
EXECUTE django_icontains('%brown%');
-- shape: Django contains, count()
SELECT COUNT(*) AS "__count" FROM "docs" WHERE "docs"."body"::text LIKE '%lazy%';

-- shape: Rails matches
SELECT "docs".* FROM "docs" WHERE "docs"."body" ILIKE '%quick%';
-- shape: Rails does_not_match
SELECT "docs"."id" FROM "docs" WHERE "docs"."title" NOT ILIKE '%dog%';
-- shape: Rails matches with escape
SELECT "docs"."id" FROM "docs" WHERE "docs"."body" ILIKE '%50\%%' ESCAPE '\';
-- shape: Rails matches_regexp
SELECT "docs"."id" FROM "docs" WHERE "docs"."body" ~* 'lazy.*dog';
-- shape: Rails where with bound parameter
PREPARE rails_matches(text) AS SELECT "docs"."id" FROM "docs" WHERE "docs"."body" ILIKE $1 ORDER BY "docs"."id" LIMIT 50;
EXECUTE rails_matches('%fox%');

-- shape: Hibernate lower like lower escape
PREPARE hibernate_like(text) AS SELECT d1_0.id, d1_0.title FROM docs d1_0 WHERE lower(d1_0.body) LIKE lower($1) ESCAPE '!';
EXECUTE hibernate_like('%Quick!_%');
-- shape: Hibernate lower like, lower-cased parameter
PREPARE hibernate_lowered(text) AS SELECT d1_0.id FROM docs d1_0 WHERE lower(d1_0.title) LIKE $1;
EXECUTE hibernate_lowered('%lazy%');
-- shape: Hibernate like, generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE hibernate_generic(text) AS SELECT d1_0.id FROM docs d1_0 WHERE d1_0.body LIKE $1 ESCAPE '!';
EXECUTE hibernate_generic('%brown%');
-- shape: Hibernate lower like, generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE hibernate_generic_lower(text) AS SELECT d1_0.id FROM docs d1_0 WHERE lower(d1_0.body) LIKE lower($1) ESCAPE '!';
EXECUTE hibernate_generic_lower('%Brown%');

-- shape: SQLAlchemy contains
PREPARE sa_contains(text) AS SELECT docs.id FROM docs WHERE (docs.body LIKE '%' || $1 || '%');
EXECUTE sa_contains('fox');
-- shape: SQLAlchemy icontains
PREPARE sa_icontains(text) AS SELECT docs.id FROM docs WHERE lower(docs.body) LIKE '%' || lower($1) || '%';
EXECUTE sa_icontains('FOX');
-- shape: SQLAlchemy startswith
PREPARE sa_startswith(text) AS SELECT docs.id FROM docs WHERE (docs.title LIKE $1 || '%');
EXECUTE sa_startswith('the');
-- shape: SQLAlchemy endswith
PREPARE sa_endswith(text) AS SELECT docs.id FROM docs WHERE (docs.body LIKE '%' || $1);
EXECUTE sa_endswith('dog');
-- shape: SQLAlchemy regexp_match
PREPARE sa_regexp(text) AS SELECT docs.id FROM docs WHERE docs.body ~ $1;
EXECUTE sa_regexp('bro?wn');
-- shape: SQLAlchemy regexp_match with flags
PREPARE sa_regexp_i(text) AS SELECT docs.id FROM docs WHERE docs.body ~* $1;
EXECUTE sa_regexp_i('BROWN');
-- shape: SQLAlchemy contains, generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE sa_generic(text) AS SELECT docs.id FROM docs WHERE (docs.body LIKE '%' || $1 || '%');
EXECUTE sa_generic('lazy');
-- shape: SQLAlchemy icontains, generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE sa_generic_i(text) AS SELECT docs.id FROM docs WHERE lower(docs.body) LIKE '%' || lower($1) || '%';
EXECUTE sa_generic_i('LAZY');

-- shape: Prisma contains
PREPARE prisma_contains(text, bigint, bigint) AS SELECT "public"."docs"."id", "public"."docs"."title" FROM "public"."docs" WHERE "public"."docs"."body"::text LIKE $1 ORDER BY "public"."docs"."id" ASC OFFSET $3 LIMIT $2;
EXECUTE prisma_contains('%quick%', 20, 0);
-- shape: Prisma contains, insensitive
PREPARE prisma_icontains(text) AS SELECT "public"."docs"."id" FROM "public"."docs" WHERE "public"."docs"."body"::text ILIKE $1;
EXECUTE prisma_icontains('%QUICK%');
-- shape: Prisma startsWith
PREPARE prisma_starts(text) AS SELECT "public"."docs"."id" FROM "public"."docs" WHERE "public"."docs"."title"::text LIKE $1;
EXECUTE prisma_starts('the%');
-- shape: Prisma count
PREPARE prisma_count(text) AS SELECT COUNT(*) AS "_count" FROM (SELECT "public"."docs"."id" FROM "public"."docs" WHERE "public"."docs"."body"::text LIKE $1 OFFSET $2) AS "sub";
EXECUTE prisma_count('%lazy%', 0);

-- shape: Sequelize like
SELECT "id", "title" FROM "docs" AS "docs" WHERE "docs"."body" LIKE '%quick%';
-- shape: Sequelize iLike
SELECT "id" FROM "docs" AS "docs" WHERE "docs"."body" ILIKE '%QUICK%';
-- shape: Sequelize notILike
SELECT "id" FROM "docs" AS "docs" WHERE "docs"."title" NOT ILIKE '%fox%';
-- shape: Sequelize substring
SELECT "id" FROM "docs" AS "docs" WHERE "docs"."body" LIKE '%jumps%';
-- shape: Sequelize iRegexp
SELECT "id" FROM "docs" AS "docs" WHERE "docs"."body" ~* '^the';
-- shape: Sequelize Op.or of two likes
SELECT "id" FROM "docs" AS "docs" WHERE ("docs"."body" LIKE '%quick%' OR "docs"."title" LIKE '%lazy%');

-- shape: strpos
SELECT id FROM docs WHERE strpos(body, 'brown') > 0;
-- shape: position
SELECT id FROM docs WHERE position('brown' in body) > 0;
-- shape: starts_with
SELECT id FROM docs WHERE starts_with(title, 'the');
-- shape: ^@
SELECT id FROM docs WHERE title ^@ 'the';
-- shape: regexp_like with flags
SELECT id FROM docs WHERE regexp_like(body, 'QUICK', 'i');
-- shape: coalesce(col, '') LIKE
SELECT id FROM docs WHERE coalesce(body, '') LIKE '%quick%';

-- shape: pattern from an InitPlan
SELECT id FROM docs WHERE body ILIKE '%' || (SELECT w FROM words WHERE id = 1) || '%';
-- shape: pattern from a correlated subquery
SELECT w.id, (SELECT count(*) FROM docs d WHERE d.body LIKE '%' || w.w || '%') FROM words w;
-- shape: join on a pattern column
SELECT w.id, d.id FROM words w JOIN docs d ON d.body LIKE '%' || w.w || '%' WHERE w.id <= 3;
-- shape: EXISTS over the words
SELECT w.id FROM words w WHERE EXISTS (SELECT 1 FROM docs d WHERE d.body ILIKE '%' || w.w || '%');
-- shape: LATERAL count per word
SELECT w.id, x.n FROM words w, LATERAL (SELECT count(*) AS n FROM docs d WHERE d.body ~* w.w) x;
-- shape: EXISTS blocklist
SELECT d.id FROM docs d WHERE EXISTS (SELECT 1 FROM blocklist b WHERE d.body LIKE b.pattern);
-- shape: LIKE ANY subquery
SELECT id FROM docs WHERE body LIKE ANY (SELECT pattern FROM blocklist);
-- shape: LIKE ANY array parameter
PREPARE any_array(text[]) AS SELECT id FROM docs WHERE body LIKE ANY ($1);
EXECUTE any_array(ARRAY['%quick%', '%lazy%']);
-- shape: LIKE ANY array, generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE any_array_generic(text[]) AS SELECT id FROM docs WHERE body ILIKE ANY ($1);
EXECUTE any_array_generic(ARRAY['%QUICK%', '%lazy%']);

-- shape: OR with another column's predicate
SELECT id FROM docs WHERE body LIKE '%quick%' OR n = 7;
-- shape: NOT over an AND
SELECT id FROM docs WHERE NOT (body LIKE '%quick%' AND tag = 'red');
-- shape: AND with other predicates
SELECT id FROM docs WHERE body ILIKE '%fox%' AND n > 3 AND tag = 'blue';
-- shape: jsonb field
SELECT id FROM docs WHERE data->>'tag' ILIKE '%re%';
-- shape: concatenated columns
SELECT id FROM docs WHERE (title || ' ' || body) ILIKE '%lazy fox%';

-- shape: ORDER BY LIMIT
SELECT id, title FROM docs WHERE body LIKE '%brown%' ORDER BY n DESC, id LIMIT 10;
-- shape: GROUP BY
SELECT tag, count(*) FROM docs WHERE body ILIKE '%dog%' GROUP BY tag;
-- shape: CTE
WITH hits AS (SELECT id, n FROM docs WHERE body LIKE '%fox%') SELECT sum(n) FROM hits;
-- shape: FOR UPDATE
SELECT id FROM docs WHERE body LIKE '%lazy%' FOR UPDATE;
-- shape: FOR SHARE SKIP LOCKED
SELECT id FROM docs WHERE body LIKE '%quick%' ORDER BY id LIMIT 5 FOR SHARE SKIP LOCKED;
-- shape: cursor
DECLARE c CURSOR FOR SELECT id FROM docs WHERE body ILIKE '%brown%' ORDER BY id;
FETCH 30 FROM c;
-- shape: UPDATE RETURNING
UPDATE docs SET n = n + 1 WHERE body LIKE '%quick brown%' RETURNING id, n;
-- shape: DELETE RETURNING
DELETE FROM docs WHERE body ~ 'lazy (cat|dog) 1' RETURNING id;
-- shape: INSERT SELECT
INSERT INTO words (id, w) SELECT 1000 + id, title FROM docs WHERE body LIKE '%jumps over%' AND id < 200 RETURNING id;
