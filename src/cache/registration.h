/*-------------------------------------------------------------------------
 *
 * registration.h
 *	  The persistent list of cached columns: gpulike.cached_columns
 *	  (see registration.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRATION_H
#define GPULIKE_REGISTRATION_H

#include "nodes/pg_list.h"

typedef struct GlRegistration
{
	Oid			relid;
	char	   *attname;
} GlRegistration;

/* gpulike.cached_columns, or InvalidOid in a database without it */
extern Oid	gl_registration_table(void);
extern void gl_registration_add(Oid relid, const char *attname);
/* attname NULL: every registration of relid */
extern void gl_registration_delete(Oid relid, const char *attname);
/*
 * Column attnum of relid was just renamed: if a registration names a
 * column relid no longer has, it was the old name; make it the new one.
 */
extern void gl_registration_follow_rename(Oid relid, AttrNumber attnum);
/*
 * The registered columns of relid (List of char *): read-only, under the
 * latest snapshot, so the DDL watch may call it.
 */
extern List *gl_registration_columns(Oid relid);
/* All registrations of this database, as a List of GlRegistration *. */
extern List *gl_registration_list(void);
/* attname NULL: is any column of relid registered? */
extern bool gl_registration_exists(Oid relid, const char *attname);

#endif							/* GPULIKE_REGISTRATION_H */
