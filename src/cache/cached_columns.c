/*-------------------------------------------------------------------------
 *
 * cached_columns.c
 *	  The persistent list of cached columns.
 *
 * gpulike.cached_columns(relid regclass, attname name) is an extension
 * configuration table (pg_extension_config_dump), so registrations survive
 * restarts and pg_dump/restore: regclass and name dump as names and are
 * resolved again on restore.  The in-memory caches are derived from it:
 * the reloader rebuilds a cache for every row after a restart.
 *
 * A partitioned table's row stands for its leaf partitions, present and
 * future: each leaf has its own row as well, added by gpulike.cache() or,
 * for partitions that come later, by the reloader (cache_ops.c).
 *
 * Only gpulike's own C functions write the table.  They do so as the
 * table's owner (the user who created the extension), so that a table
 * owner who is not that user can cache, uncache and drop their tables;
 * the table itself grants writes to nobody else.  The statements run
 * under SECURITY_RESTRICTED_OPERATION with every name schema-qualified.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "cache/cached_columns.h"

Oid
gl_cached_columns_table(void)
{
	Oid			nspid = get_namespace_oid("gpulike", true);

	return OidIsValid(nspid) ? get_relname_relid("cached_columns", nspid) : InvalidOid;
}

/* InvalidOid when the table is gone (DROP EXTENSION in progress). */
static Oid
config_table_owner(bool missing_ok)
{
	Oid			relid = gl_cached_columns_table();
	HeapTuple	tuple;
	Oid			owner;

	if (!OidIsValid(relid) && missing_ok)
		return InvalidOid;
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("gpulike.cached_columns does not exist"),
				 errhint("Run CREATE EXTENSION gpulike in this database.")));
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

/*
 * Run one statement with up to two parameters (an oid and a name) as the
 * config table's owner.  Returns the SPI result code; rows, if any, are in
 * SPI_tuptable until the caller's SPI_finish.
 */
static int
run_as_owner(Oid owner, const char *sql, Oid relid, const char *attname,
			 bool read_only)
{
	Oid			argtypes[2] = {OIDOID, NAMEOID};
	Datum		values[2];
	char		nulls[2] = {' ', ' '};
	Oid			save_userid;
	int			save_sec_context;
	int			nargs = 0;
	int			rc;

	if (OidIsValid(relid))
	{
		values[nargs++] = ObjectIdGetDatum(relid);
		if (attname)
			values[nargs++] = DirectFunctionCall1(namein, CStringGetDatum(attname));
	}

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner,
						   save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	rc = SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
							   read_only, 0);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	if (rc < 0)
		elog(ERROR, "gpulike: SPI failed (%d) on: %s", rc, sql);
	return rc;
}

void
gl_cached_columns_add(Oid relid, const char *attname)
{
	Oid			owner = config_table_owner(false);

	SPI_connect();
	run_as_owner(owner, "INSERT INTO gpulike.cached_columns (relid, attname) "
				 "VALUES ($1::pg_catalog.regclass, $2) ON CONFLICT DO NOTHING",
				 relid, attname, false);
	SPI_finish();
}

void
gl_cached_columns_delete(Oid relid, const char *attname)
{
	Oid			owner = config_table_owner(true);

	if (!OidIsValid(owner))
		return;					/* the extension is being dropped */
	SPI_connect();
	if (attname)
		run_as_owner(owner, "DELETE FROM gpulike.cached_columns "
					 "WHERE relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass "
					 "AND attname OPERATOR(pg_catalog.=) $2",
					 relid, attname, false);
	else
		run_as_owner(owner, "DELETE FROM gpulike.cached_columns "
					 "WHERE relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
					 relid, NULL, false);
	SPI_finish();
}

/* With a fresh snapshot: the caller may just have waited for a lock. */
void
gl_cached_columns_follow_rename(Oid relid, AttrNumber attnum)
{
	Oid			owner = config_table_owner(true);
	Oid			argtypes[2] = {OIDOID, INT2OID};
	Datum		values[2] = {ObjectIdGetDatum(relid), Int16GetDatum(attnum)};
	Oid			save_userid;
	int			save_sec_context;

	if (!OidIsValid(owner))
		return;
	SPI_connect();
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner,
						   save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	/* not read-only: SPI then sees the catalog row the rename just wrote */
	if (SPI_execute_with_args("UPDATE gpulike.cached_columns r SET attname = a.attname "
							  "FROM pg_catalog.pg_attribute a "
							  "WHERE r.relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass "
							  "AND a.attrelid OPERATOR(pg_catalog.=) $1 "
							  "AND a.attnum OPERATOR(pg_catalog.=) $2 "
							  "AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute b "
							  "  WHERE b.attrelid OPERATOR(pg_catalog.=) $1 "
							  "  AND b.attname OPERATOR(pg_catalog.=) r.attname "
							  "  AND NOT b.attisdropped)",
							  2, argtypes, values, NULL, false, 0) < 0)
		elog(ERROR, "gpulike: could not follow the rename of a cached column");
	SetUserIdAndSecContext(save_userid, save_sec_context);
	SPI_finish();
}

bool
gl_cached_columns_exists(Oid relid, const char *attname)
{
	Oid			owner = config_table_owner(false);
	bool		exists;

	SPI_connect();
	if (attname)
		run_as_owner(owner, "SELECT 1 FROM gpulike.cached_columns "
					 "WHERE relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass "
					 "AND attname OPERATOR(pg_catalog.=) $2",
					 relid, attname, false);
	else
		run_as_owner(owner, "SELECT 1 FROM gpulike.cached_columns "
					 "WHERE relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
					 relid, NULL, false);
	exists = SPI_processed > 0;
	SPI_finish();
	return exists;
}

/*
 * Read-only, so that it may run in the middle of a DDL command (the DDL
 * watch does: no command counter increment), and under the latest
 * snapshot rather than the statement's: a DDL command that waited for a
 * lock held by gpulike.cache() must see that registration once cache()
 * has committed.
 */
List *
gl_cached_columns_columns(Oid relid)
{
	MemoryContext caller = CurrentMemoryContext;
	List	   *result = NIL;
	Oid			owner = config_table_owner(true);
	Oid			argtypes[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(relid)};
	Oid			save_userid;
	int			save_sec_context;
	SPIPlanPtr	plan;

	if (!OidIsValid(owner))
		return NIL;
	SPI_connect();
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner,
						   save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	plan = SPI_prepare("SELECT attname::pg_catalog.text FROM gpulike.cached_columns "
					   "WHERE relid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass",
					   1, argtypes);
	if (plan == NULL ||
		SPI_execute_snapshot(plan, values, NULL, GetLatestSnapshot(),
							 InvalidSnapshot, true, false, 0) < 0)
		elog(ERROR, "gpulike: could not read the registrations of relation %u", relid);
	SetUserIdAndSecContext(save_userid, save_sec_context);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *attname = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		MemoryContext spi = MemoryContextSwitchTo(caller);

		result = lappend(result, pstrdup(attname));
		MemoryContextSwitchTo(spi);
	}
	SPI_finish();
	return result;
}

List *
gl_cached_columns_list(void)
{
	MemoryContext caller = CurrentMemoryContext;
	List	   *result = NIL;
	Oid			owner = config_table_owner(false);

	SPI_connect();
	run_as_owner(owner, "SELECT relid::pg_catalog.oid, attname::pg_catalog.text "
				 "FROM gpulike.cached_columns ORDER BY 1, 2",
				 InvalidOid, NULL, true);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		Datum		relid = SPI_getbinval(tuple, desc, 1, &isnull);
		char	   *attname = SPI_getvalue(tuple, desc, 2);
		MemoryContext spi = MemoryContextSwitchTo(caller);
		GlRegistration *registration = palloc(sizeof(GlRegistration));

		registration->relid = DatumGetObjectId(relid);
		registration->attname = pstrdup(attname);
		result = lappend(result, registration);
		MemoryContextSwitchTo(spi);
	}
	SPI_finish();
	return result;
}
