/*-------------------------------------------------------------------------
 *
 * bench_sql.c
 *	  cpu_engine_benchmark(tbl, col, pattern, op) for test/bench/cpu_engine.sql:
 *	  the CPU engine on one core against PostgreSQL's own operator
 *	  function, same process, same strings.
 *
 * A test-only loadable module, gpulike_bench (this directory's Makefile),
 * not part of gpulike.so nor of the extension's script: the benchmark
 * creates the function for its session.  The module calls gpulike's own
 * compiler and CPU engine, which gpulike.so exports; the benchmark loads
 * gpulike first (LOAD 'gpulike'), and PostgreSQL loads every library with
 * RTLD_GLOBAL, so this module's references to them resolve there.
 *
 * The column's values are read once (SPI) into both a GlColumn and an array
 * of text datums, so neither side pays for heap access, detoasting or
 * executor overhead while timed: what is compared is matching alone.  The
 * engine runs gl_cpu_match_column with one thread; PostgreSQL runs the
 * operator's C function (textlike, texticlike, textregexeq, ...) through
 * DirectFunctionCall2Coll, which is what its executor calls per row.  Each
 * side runs three times and keeps its best (thread CPU) time.  op "~~ any" / "~~* any"
 * takes pattern as an array literal ('{%a%,%b%}') and times LIKE ANY: one
 * Aho–Corasick program against PostgreSQL calling the operator per element
 * until one matches, as its ScalarArrayOpExpr does.  Both must count the same
 * matches (a superset program at least as many), or this is an ERROR:
 * a benchmark of a wrong answer is worthless.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "column/column.h"
#include "engine/cpu_engine.h"
#include "pattern/compile.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(gl_bench_cpu_engine);

#define BENCH_RUNS	3

/*
 * CPU time of this thread: both sides run on this one thread, and on a
 * shared machine wall time would also count whoever else had the core.
 */
static double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static PGFunction
postgres_function(GlPatternOp op)
{
	switch (op)
	{
		case GL_OP_LIKE:
			return textlike;
		case GL_OP_ILIKE:
			return texticlike;
		case GL_OP_REGEX:
			return textregexeq;
		case GL_OP_IREGEX:
			return texticregexeq;
	}
	return NULL;
}

static GlPatternOp
parse_bench_op(char *s, bool *any)
{
	size_t		len = strlen(s);

	*any = len > 4 && strcmp(s + len - 4, " any") == 0;
	if (*any)
		s[len - 4] = '\0';
	if (strcmp(s, "~~") == 0)
		return GL_OP_LIKE;
	if (strcmp(s, "~~*") == 0)
		return GL_OP_ILIKE;
	if (strcmp(s, "~") == 0)
		return GL_OP_REGEX;
	if (strcmp(s, "~*") == 0)
		return GL_OP_IREGEX;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown pattern operator \"%s\"", s),
			 errhint("Use one of ~~ ~~* ~ ~* ~~ any ~~* any.")));
	return GL_OP_LIKE;
}

/*
 * Read the column into col (malloc'd) and datums (palloc'd, detoasted,
 * NULLs as 0).  Returns the row count.
 */
static uint64
load_column(Oid relid, const char *colname, GlColumn *col, Datum **datums)
{
	char	   *query;
	uint64		r;

	query = psprintf("SELECT %s FROM %s", quote_identifier(colname),
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)));
	if (SPI_connect() != SPI_OK_CONNECT ||
		SPI_execute(query, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read %s", query);

	*datums = MemoryContextAlloc(TopTransactionContext,
								 sizeof(Datum) * (SPI_processed + 1));
	if (!gl_column_init(col, SPI_processed, 0))
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	for (r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc,
									  1, &isnull);
		text	   *t = NULL;
		MemoryContext old;

		if (!isnull)
		{
			old = MemoryContextSwitchTo(TopTransactionContext);
			t = (text *) PG_DETOAST_DATUM_COPY(d);
			MemoryContextSwitchTo(old);
		}
		(*datums)[r] = PointerGetDatum(t);
		/* a TID of its own per row, or each row would supersede the last */
		if (!gl_column_append(col, gl_tid_make((uint32_t) (r / 256), (uint16_t) (r % 256 + 1)),
							  t ? VARDATA_ANY(t) : NULL,
							  t ? VARSIZE_ANY_EXHDR(t) : 0,
							  isnull ? GL_ROW_IS_NULL : 0))
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	}
	SPI_finish();
	return col->nrows;
}

typedef struct BenchResult
{
	uint64		gl_count;
	uint64		pg_count;
	double		gl_seconds;		/* best of BENCH_RUNS */
	double		pg_seconds;
	double		megabytes;
} BenchResult;

/* Load the column into col (freed by the caller, also on error) and time both. */
static void
measure(Oid relid, const char *colname, const GlProgram *prog, PGFunction pg_fn,
		text **patterns, int npatterns, Oid collation, GlColumn *col,
		BenchResult *res)
{
	Datum	   *datums;
	uint64		nrows = load_column(relid, colname, col, &datums);
	uint64_t   *bits = palloc(sizeof(uint64_t) * (gl_bitmap_words(nrows) + 1));
	uint64		r;
	int			run;

	res->gl_seconds = res->pg_seconds = 1e30;
	res->gl_count = res->pg_count = 0;
	res->megabytes = col->nbytes / 1e6;
	for (run = 0; run < BENCH_RUNS; run++)
	{
		double		start = now_seconds();

		if (!gl_cpu_match_column(prog, col, bits, 1))
			elog(ERROR, "the CPU engine could not run");
		res->gl_seconds = Min(res->gl_seconds, now_seconds() - start);
	}
	for (r = 0; r < gl_bitmap_words(nrows); r++)
		res->gl_count += __builtin_popcountll(bits[r]);

	for (run = 0; run < BENCH_RUNS; run++)
	{
		double		start = now_seconds();
		uint64		count = 0;

		for (r = 0; r < nrows; r++)
		{
			int			p;

			if (datums[r] == (Datum) 0)
				continue;
			for (p = 0; p < npatterns; p++)
			{
				if (DatumGetBool(DirectFunctionCall2Coll(pg_fn, collation, datums[r],
														 PointerGetDatum(patterns[p]))))
				{
					count++;
					break;
				}
			}
		}
		res->pg_seconds = Min(res->pg_seconds, now_seconds() - start);
		res->pg_count = count;
	}
}

Datum
gl_bench_cpu_engine(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *colname = NameStr(*PG_GETARG_NAME(1));
	text	   *pattern = PG_GETARG_TEXT_PP(2);
	bool		any;
	GlPatternOp op = parse_bench_op(text_to_cstring(PG_GETARG_TEXT_PP(3)), &any);
	text	  **patterns = &pattern;
	int			npatterns = 1;
	AttrNumber	attnum = get_attnum(relid, colname);
	Oid			typid,
				collation;
	int32		typmod;
	GlColumn	col;
	GlProgram  *prog;
	const char *refusal;
	BenchResult res;
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" does not exist", colname)));
	get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collation);
	if (typid != TEXTOID && typid != VARCHAROID && typid != BPCHAROID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" is not text, varchar or char", colname)));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	if (any)
	{
		Datum		arr = OidInputFunctionCall(F_ARRAY_IN, text_to_cstring(pattern),
											   TEXTOID, -1);
		Datum	   *elems;
		bool	   *elem_nulls;
		int			i;

		deconstruct_array(DatumGetArrayTypeP(arr), TEXTOID, -1, false, TYPALIGN_INT,
						  &elems, &elem_nulls, &npatterns);
		patterns = palloc(sizeof(text *) * (npatterns + 1));
		for (i = 0; i < npatterns; i++)
		{
			if (elem_nulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("patterns must not be NULL")));
			patterns[i] = DatumGetTextPP(elems[i]);
		}
		prog = gl_compile_any(op, patterns, npatterns, collation, &refusal);
	}
	else
		prog = gl_compile_pattern(op, pattern, collation, &refusal);
	if (prog == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpulike cannot compile this pattern: %s", refusal)));

	memset(&col, 0, sizeof(col));
	PG_TRY();
	{
		measure(relid, colname, prog, postgres_function(op), patterns, npatterns,
				collation, &col, &res);
	}
	PG_FINALLY();
	{
		gl_column_free(&col);
	}
	PG_END_TRY();

	if (prog->exact ? res.gl_count != res.pg_count : res.gl_count < res.pg_count)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("gpulike matched %llu rows, PostgreSQL %llu",
						(unsigned long long) res.gl_count,
						(unsigned long long) res.pg_count)));

	values[0] = Float8GetDatum(res.megabytes / Max(res.gl_seconds, 1e-9));
	values[1] = Float8GetDatum(res.megabytes / Max(res.pg_seconds, 1e-9));
	values[2] = Float8GetDatum(res.pg_seconds / Max(res.gl_seconds, 1e-9));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
													  values, nulls)));
}
