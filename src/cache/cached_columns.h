/*-------------------------------------------------------------------------
 *
 * cached_columns.h
 *	  The persistent list of cached columns: gpulike.cached_columns
 *	  (see cached_columns.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CACHED_COLUMNS_H
#define GPULIKE_CACHED_COLUMNS_H

#include "nodes/pg_list.h"

typedef struct GlRegistration
{
	Oid			relid;
	char	   *attname;
} GlRegistration;

/* gpulike.cached_columns, or InvalidOid in a database without it */
extern Oid	gl_cached_columns_table(void);
extern void gl_cached_columns_add(Oid relid, const char *attname);
/* attname NULL: every registration of relid */
extern void gl_cached_columns_delete(Oid relid, const char *attname);
/*
 * Column attnum of relid was just renamed: if a registration names a
 * column relid no longer has, it was the old name; make it the new one.
 */
extern void gl_cached_columns_follow_rename(Oid relid, AttrNumber attnum);
/*
 * The registered columns of relid (List of char *): read-only, under the
 * latest snapshot, so the DDL watch may call it.
 */
extern List *gl_cached_columns_columns(Oid relid);
/* All registrations of this database, as a List of GlRegistration *. */
extern List *gl_cached_columns_list(void);
/* attname NULL: is any column of relid registered? */
extern bool gl_cached_columns_exists(Oid relid, const char *attname);

#endif							/* GPULIKE_CACHED_COLUMNS_H */
