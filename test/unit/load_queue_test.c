/*
 * load_queue_test.c
 *	  Changes queued while a column loads (src/column/load_queue.c): nothing
 *	  reaches the column until the replay, which appends them after the
 *	  loaded rows in the order they came -- the loaded rows stay the sorted
 *	  prefix, each TID's latest row holds its last logged version (or the
 *	  loaded one), only loaded rows never ended stay known live, and the
 *	  garbage count has every loaded row found ending, every ended and
 *	  every superseded row -- against a model, on random changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "column/load_queue.h"
#include "tap.h"

#define LOADED_TIDS 3000
#define ALL_TIDS	4000		/* the rest appear only in changes */
#define CHANGES		20000

static GlTid
model_tid(int i)
{
	return gl_tid_make((uint32_t) (i / 50), (uint16_t) (i % 50 + 1));
}

/* What the model knows of each TID's latest row. */
typedef struct ModelRow
{
	bool		present;
	bool		isnull;
	bool		known_live;
	char		value[32];
} ModelRow;

static ModelRow model[ALL_TIDS];

int
main(void)
{
	GlColumn	col;
	GlLoadQueue	queue;
	uint64_t	garbage = 0;
	uint64_t	versions = LOADED_TIDS;
	uint64_t	loaded;
	bool		ok = true;

	srand(12);
	memset(&queue, 0, sizeof(queue));
	gl_column_init(&col, 16, 64);
	for (int i = 0; i < LOADED_TIDS; i++)
	{
		ModelRow   *m = &model[i];
		uint32_t	flags = 0;

		m->present = true;
		snprintf(m->value, sizeof(m->value), "loaded %d", i);
		if (i % 3 == 0)
			flags = GL_ROW_KNOWN_LIVE;
		else if (i % 3 == 1)
		{
			flags = GL_ROW_ENDING;
			garbage++;
		}
		m->known_live = flags == GL_ROW_KNOWN_LIVE;
		ok &= gl_column_append(&col, model_tid(i), m->value,
							   (uint32_t) strlen(m->value), flags);
	}
	loaded = col.nrows;
	tap_ok(ok && col.sorted_rows == loaded && col.ngarbage == garbage,
		   "loaded rows: the sorted prefix, those found ending counted as garbage");

	for (int op = 0; op < CHANGES; op++)
	{
		int			i = rand() % ALL_TIDS;
		ModelRow   *m = &model[i];

		if (rand() % 3 == 0)
		{
			ok &= gl_load_queue_add_ended(&queue, model_tid(i));
			if (m->present)
			{
				m->known_live = false;
				garbage++;
			}
			continue;
		}
		if (m->present)
			garbage++;			/* superseded */
		m->present = true;
		m->known_live = false;
		m->isnull = rand() % 10 == 0;
		snprintf(m->value, sizeof(m->value), "change %d", op);
		ok &= gl_load_queue_add_version(&queue, model_tid(i), m->value,
									  (uint32_t) strlen(m->value), m->isnull);
		versions++;
	}
	tap_ok(ok && col.nrows == loaded && gl_load_queue_bytes(&queue) > 0,
		   "queued changes do not touch the column (%zu bytes queued)",
		   gl_load_queue_bytes(&queue));

	ok = gl_load_queue_replay(&queue, &col);
	for (int i = 0; i < LOADED_TIDS; i++)
		ok &= gl_column_tid(&col, i) == model_tid(i);
	tap_ok(ok && col.nrows == versions && col.sorted_rows >= loaded,
		   "the replay appends every version after the loaded rows, which stay the sorted prefix (%llu rows)",
		   (unsigned long long) col.nrows);

	for (int i = 0; i < ALL_TIDS && ok; i++)
	{
		ModelRow   *m = &model[i];
		uint64_t	row;
		uint32_t	len;
		const char *value;

		if (!gl_column_latest_row(&col, model_tid(i), &row))
		{
			ok = !m->present;
			if (!ok)
				tap_ok(false, "TID %d has no row", i);
			continue;
		}
		value = gl_column_value(&col, row, &len);
		if (!m->present || gl_column_is_null(&col, row) != m->isnull ||
			(!m->isnull && (len != strlen(m->value) || memcmp(value, m->value, len) != 0)) ||
			gl_bitmap_test(col.known_live, row) != m->known_live ||
			gl_bitmap_test(col.superseded, row))
		{
			tap_ok(false, "TID %d: latest row %llu is not the model's (%s)", i,
				   (unsigned long long) row, m->value);
			ok = false;
		}
	}
	tap_ok(ok, "every TID's latest row is its last version, known live only if loaded so and never ended");

	{
		uint64_t	superseded = 0;
		uint64_t	latest = 0;

		for (uint64_t r = 0; r < col.nrows; r++)
			superseded += gl_bitmap_test(col.superseded, r);
		for (int i = 0; i < ALL_TIDS; i++)
			latest += model[i].present;
		tap_ok(superseded == col.nrows - latest,
			   "every other row is superseded (%llu)", (unsigned long long) superseded);
	}
	tap_ok(col.ngarbage == garbage, "garbage counted: %llu, model %llu",
		   (unsigned long long) col.ngarbage, (unsigned long long) garbage);

	gl_load_queue_free(&queue);
	tap_ok(queue.data == NULL && gl_load_queue_bytes(&queue) == 0, "the queue is freed");
	gl_column_free(&col);
	return tap_done();
}
