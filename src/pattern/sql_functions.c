/*-------------------------------------------------------------------------
 *
 * sql_functions.c
 *	  SQL-callable entry points to the compiler and the CPU engine, so that
 *	  tests can put gpulike's answer next to PostgreSQL's, row by row:
 *
 *	  gpulike.match(subject, pattern, op)			-> bool, via the CPU engine
 *	  gpulike.match_any(subject, patterns[], op)	-> bool, one combined program
 *	  gpulike.explain_pattern(pattern, op)			-> what EXPLAIN would say
 *	  gpulike.explain_any(patterns[], op)
 *	  gpulike.program_bytes(pattern, op)			-> the raw program blob
 *	  gpulike.program_bytes_any(patterns[], op)
 *	  gpulike.pattern_operator(opno)				-> how the planner will see it
 *
 * op is the operator's spelling: ~~ !~~ ~~* !~~* ~ !~ ~* !~*.  The collation
 * is the call's, as for the operators themselves.  A pattern the compiler
 * refuses is an ERROR here (tests must notice), except in explain_*, which
 * report "refused: <reason>".  A program that is only a superset answers
 * "true" only after PostgreSQL's own operator agrees, as the executor's
 * recheck would.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "engine/cpu_engine.h"
#include "pattern/compile.h"

PG_FUNCTION_INFO_V1(gl_match);
PG_FUNCTION_INFO_V1(gl_match_any);
PG_FUNCTION_INFO_V1(gl_explain_pattern);
PG_FUNCTION_INFO_V1(gl_explain_any);
PG_FUNCTION_INFO_V1(gl_program_bytes);
PG_FUNCTION_INFO_V1(gl_program_bytes_any);
PG_FUNCTION_INFO_V1(gl_pattern_operator_sql);

/* The last program compiled at one call site, reused while the pattern is. */
typedef struct CompiledCache
{
	GlPatternOp op;
	Oid			collation;
	text	   *pattern;
	GlProgram  *prog;
} CompiledCache;

static void
parse_op(text *op_text, GlPatternOp *op, bool *negated)
{
	char	   *op_str = text_to_cstring(op_text);
	const char *base = op_str;

	*negated = (op_str[0] == '!');
	if (*negated)
		base++;
	if (strcmp(base, "~~") == 0)
		*op = GL_OP_LIKE;
	else if (strcmp(base, "~~*") == 0)
		*op = GL_OP_ILIKE;
	else if (strcmp(base, "~") == 0)
		*op = GL_OP_REGEX;
	else if (strcmp(base, "~*") == 0)
		*op = GL_OP_IREGEX;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown pattern operator \"%s\"", op_str),
				 errhint("Use one of ~~ !~~ ~~* !~~* ~ !~ ~* !~*.")));
}

static void
refused(const char *refusal)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("gpulike cannot compile this pattern: %s", refusal)));
}

/* Array elements as text pointers; NULL patterns are not accepted. */
static text **
pattern_array(ArrayType *arr, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	text	  **patterns;
	int			i;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, n);
	patterns = palloc(sizeof(text *) * (*n + 1));
	for (i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("patterns must not be NULL")));
		patterns[i] = DatumGetTextPP(elems[i]);
	}
	return patterns;
}

/* PostgreSQL's own operator, for rechecking superset programs. */
static bool
postgres_matches(GlPatternOp op, text *subject, text *pattern, Oid collation)
{
	PGFunction	fn;

	switch (op)
	{
		case GL_OP_LIKE:
			fn = textlike;
			break;
		case GL_OP_ILIKE:
			fn = texticlike;
			break;
		case GL_OP_REGEX:
			fn = textregexeq;
			break;
		default:
			fn = texticregexeq;
			break;
	}
	return DatumGetBool(DirectFunctionCall2Coll(fn, collation,
												PointerGetDatum(subject),
												PointerGetDatum(pattern)));
}

static GlProgram *
compile_or_error(text *pattern, GlPatternOp op, Oid collation)
{
	const char *refusal;
	GlProgram  *prog = gl_compile_pattern(op, pattern, collation, &refusal);

	if (prog == NULL)
	{
		/* an invalid regex gets PostgreSQL's own error, as its operator's */
		if (op == GL_OP_REGEX || op == GL_OP_IREGEX)
			(void) postgres_matches(op, cstring_to_text(""), pattern, collation);
		refused(refusal);
	}
	return prog;
}

/* The program for (op, pattern) at this call site, compiled once. */
static GlProgram *
cached_program(FunctionCallInfo fcinfo, GlPatternOp op, text *pattern,
			   Oid collation)
{
	CompiledCache *cache = fcinfo->flinfo->fn_extra;
	MemoryContext old;
	GlProgram  *prog;

	if (cache != NULL && cache->op == op && cache->collation == collation &&
		VARSIZE_ANY_EXHDR(cache->pattern) == VARSIZE_ANY_EXHDR(pattern) &&
		memcmp(VARDATA_ANY(cache->pattern), VARDATA_ANY(pattern),
			   VARSIZE_ANY_EXHDR(pattern)) == 0)
		return cache->prog;

	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	prog = compile_or_error(pattern, op, collation);
	if (cache == NULL)
		cache = palloc0(sizeof(CompiledCache));
	else
	{
		pfree(cache->pattern);
		pfree(cache->prog);
	}
	cache->op = op;
	cache->collation = collation;
	cache->pattern = (text *) PG_DETOAST_DATUM_COPY(PointerGetDatum(pattern));
	cache->prog = prog;
	fcinfo->flinfo->fn_extra = cache;
	MemoryContextSwitchTo(old);
	return prog;
}

Datum
gl_match(PG_FUNCTION_ARGS)
{
	text	   *subject = PG_GETARG_TEXT_PP(0);
	text	   *pattern = PG_GETARG_TEXT_PP(1);
	Oid			collation = PG_GET_COLLATION();
	GlPatternOp op;
	bool		negated;
	GlProgram  *prog;
	bool		matched;

	parse_op(PG_GETARG_TEXT_PP(2), &op, &negated);
	prog = cached_program(fcinfo, op, pattern, collation);
	matched = gl_cpu_match_value(prog, VARDATA_ANY(subject),
								 VARSIZE_ANY_EXHDR(subject));
	if (matched && !prog->exact)
		matched = postgres_matches(op, subject, pattern, collation);
	PG_RETURN_BOOL(matched != negated);
}

static GlProgram *
compile_any_or_error(ArrayType *arr, GlPatternOp op, Oid collation)
{
	int			n;
	text	  **patterns = pattern_array(arr, &n);
	const char *refusal;
	GlProgram  *prog = gl_compile_any(op, patterns, n, collation, &refusal);

	if (prog == NULL)
		refused(refusal);
	return prog;
}

/* The combined program of one call site, kept while the array is the same. */
typedef struct AnyCache
{
	GlPatternOp op;
	Oid			collation;
	ArrayType  *patterns;
	GlProgram  *prog;
} AnyCache;

Datum
gl_match_any(PG_FUNCTION_ARGS)
{
	text	   *subject = PG_GETARG_TEXT_PP(0);
	ArrayType  *patterns = PG_GETARG_ARRAYTYPE_P(1);
	Oid			collation = PG_GET_COLLATION();
	AnyCache   *cache = fcinfo->flinfo->fn_extra;
	GlPatternOp op;
	bool		negated;

	bool		matched;

	parse_op(PG_GETARG_TEXT_PP(2), &op, &negated);
	if (negated)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("match_any takes ~~ or ~~*")));
	/* as "subject LIKE ANY ('{}')": no pattern, no match */
	if (ArrayGetNItems(ARR_NDIM(patterns), ARR_DIMS(patterns)) == 0)
		PG_RETURN_BOOL(false);
	if (cache == NULL || cache->op != op || cache->collation != collation ||
		VARSIZE(cache->patterns) != VARSIZE(patterns) ||
		memcmp(cache->patterns, patterns, VARSIZE(patterns)) != 0)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		GlProgram  *prog = compile_any_or_error(patterns, op, collation);

		if (cache == NULL)
			cache = palloc0(sizeof(AnyCache));
		else
		{
			pfree(cache->patterns);
			pfree(cache->prog);
		}
		cache->op = op;
		cache->collation = collation;
		cache->patterns = (ArrayType *) pg_detoast_datum_copy((struct varlena *) patterns);
		cache->prog = prog;
		fcinfo->flinfo->fn_extra = cache;
		MemoryContextSwitchTo(old);
	}
	matched = gl_cpu_match_value(cache->prog, VARDATA_ANY(subject),
								 VARSIZE_ANY_EXHDR(subject));
	if (matched && !cache->prog->exact)
	{
		/* a superset program: PostgreSQL decides, pattern by pattern */
		int			n;
		text	  **each = pattern_array(patterns, &n);

		matched = false;
		for (int i = 0; i < n && !matched; i++)
			matched = postgres_matches(op, subject, each[i], collation);
	}
	PG_RETURN_BOOL(matched);
}

/* What EXPLAIN would say about a program, or why there is none. */
static text *
describe_or_refusal(const GlProgram *prog, const char *refusal)
{
	if (prog == NULL)
		return cstring_to_text(psprintf("refused: %s", refusal));
	return cstring_to_text(gl_program_describe(prog));
}

Datum
gl_explain_pattern(PG_FUNCTION_ARGS)
{
	GlPatternOp op;
	bool		negated;
	const char *refusal;
	GlProgram  *prog;

	parse_op(PG_GETARG_TEXT_PP(1), &op, &negated);
	prog = gl_compile_pattern(op, PG_GETARG_TEXT_PP(0), PG_GET_COLLATION(), &refusal);
	PG_RETURN_TEXT_P(describe_or_refusal(prog, refusal));
}

Datum
gl_explain_any(PG_FUNCTION_ARGS)
{
	GlPatternOp op;
	bool		negated;
	const char *refusal;
	GlProgram  *prog;
	text	  **patterns;
	int			n;

	parse_op(PG_GETARG_TEXT_PP(1), &op, &negated);
	patterns = pattern_array(PG_GETARG_ARRAYTYPE_P(0), &n);
	prog = gl_compile_any(op, patterns, n, PG_GET_COLLATION(), &refusal);
	PG_RETURN_TEXT_P(describe_or_refusal(prog, refusal));
}

static bytea *
program_as_bytea(const GlProgram *prog)
{
	bytea	   *result = palloc(VARHDRSZ + prog->total_size);

	SET_VARSIZE(result, VARHDRSZ + prog->total_size);
	memcpy(VARDATA(result), prog, prog->total_size);
	return result;
}

Datum
gl_program_bytes(PG_FUNCTION_ARGS)
{
	GlPatternOp op;
	bool		negated;

	parse_op(PG_GETARG_TEXT_PP(1), &op, &negated);
	PG_RETURN_BYTEA_P(program_as_bytea(compile_or_error(PG_GETARG_TEXT_PP(0),
														op, PG_GET_COLLATION())));
}

Datum
gl_program_bytes_any(PG_FUNCTION_ARGS)
{
	GlPatternOp op;
	bool		negated;

	parse_op(PG_GETARG_TEXT_PP(1), &op, &negated);
	PG_RETURN_BYTEA_P(program_as_bytea(compile_any_or_error(PG_GETARG_ARRAYTYPE_P(0),
															op, PG_GET_COLLATION())));
}

/* gl_pattern_operator() as SQL: the operator spelled as gpulike reads it. */
Datum
gl_pattern_operator_sql(PG_FUNCTION_ARGS)
{
	static const char *const spelling[] = {"~~", "~~*", "~", "~*"};
	GlPatternOp op;
	bool		negated;

	if (!gl_pattern_operator(PG_GETARG_OID(0), &op, &negated))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(psprintf("%s%s", negated ? "!" : "",
											  spelling[op])));
}
