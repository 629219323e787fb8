/*-------------------------------------------------------------------------
 *
 * cache_ops.h
 *	  Caching, uncaching and rebuilding one column of one table: the steps
 *	  shared by the SQL functions, the DDL watch and the reloader
 *	  (cache_ops.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CACHE_OPS_H
#define GPULIKE_CACHE_OPS_H

#include "nodes/pg_list.h"
#include "storage/lockdefs.h"
#include "utils/relcache.h"

typedef enum GlLoadMode
{
	GL_LOAD_EXPLICIT,			/* gpulike.cache(): register, enable triggers */
	GL_LOAD_RELOAD,				/* gpulike.reload(): enable triggers */
	GL_LOAD_BACKGROUND			/* reloader: leave a disabled trigger alone */
} GlLoadMode;

typedef enum GlLoadOutcome
{
	GL_LOADED,
	GL_SKIPPED_TRIGGER_DISABLED,
	GL_SKIPPED_NOT_NEEDED,		/* someone else rebuilt it meanwhile */
	GL_SKIPPED_WENT_STALE		/* the table changed in a way the load
								 * could not follow; rebuilt in the
								 * background */
} GlLoadOutcome;

/* Errors unless rel/attname is a column gpulike can cache; its attnum. */
extern AttrNumber gl_cacheable_column(Relation rel, const char *attname);

/*
 * The plain tables behind relid (itself, or a partitioned table's leaves,
 * locked in lockmode).
 */
extern List *gl_cache_leaf_tables(Oid relid, const char *attname,
								  LOCKMODE lockmode);

/*
 * gpulike.cache() of a partitioned table: register the table itself, so
 * that the partitions it gets later are cached too.
 */
extern void gl_cache_register_partitioned(Oid relid, const char *attname);

/*
 * The nearest ancestor of partition relid with attname registered, or
 * InvalidOid (also when relid is not a partition).
 */
extern Oid	gl_cache_registered_ancestor(Oid relid, const char *attname);

/*
 * DDL watch: child was just attached to partitioned table parent.  The
 * leaves under child get stale slots for the columns registered on parent
 * or its ancestors; the reloader registers and loads them after commit.
 */
extern void gl_cache_new_partition(Oid child, Oid parent);

/*
 * gpulike.cache() of relid's leaves (a partitioned table's): raise the
 * quota's error, naming relid, before any is cached, if their owners
 * have not the room for one column more per leaf not cached yet.
 */
extern void gl_cache_require_room_for(Oid relid, const char *attname,
									  List *leaves);

extern GlLoadOutcome gl_cache_column(Oid relid, const char *attname,
									 GlLoadMode mode);
/* false if the column was not cached */
extern bool gl_uncache_column(Oid relid, const char *attname);

/* DDL watch: a cached table (attnum 0) or column was dropped. */
extern void gl_cache_forget_dropped(Oid relid, AttrNumber attnum);

/*
 * DDL watch: DROP EXTENSION gpulike.  Forget this database's slots (their
 * registrations go with the extension); restored if the DROP rolls back.
 */
extern void gl_cache_forget_database(void);

/*
 * Bring the registry in line with gpulike.cached_columns for this
 * database: drop registrations of vanished tables and columns, forget
 * slots nobody registered, give every registration a slot.  Returns the
 * valid registrations (List of GlRegistration *).
 */
extern List *gl_cache_reconcile(void);

#endif							/* GPULIKE_CACHE_OPS_H */
