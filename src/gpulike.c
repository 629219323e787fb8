/*-------------------------------------------------------------------------
 *
 * gpulike.c
 *	  The module's entry point: _PG_init registers what each module needs.
 *
 * gpulike works only when loaded through shared_preload_libraries: its
 * server is a background worker started by the postmaster and talks to
 * backends through shared memory reserved at startup.  Loaded any other way
 * (CREATE EXTENSION in a cluster that does not preload it) the library stays
 * inert: every query keeps its ordinary plan, and CREATE EXTENSION says so.
 *
 * Under shared_preload_libraries, the owner of each shared-memory structure
 * reserves it (the registry of cached columns, the delta log of row
 * changes, the server's mailbox), the cache module watches DDL and registers
 * its reload launcher, and the server registers its background worker.  In
 * every process the settings are defined and the planner and executor
 * hooked.  This file is the top layer: it calls into the modules, and
 * no module calls into it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "cache/ddl_watch.h"
#include "cache/reload_worker.h"
#include "pattern/case_fold.h"
#include "protocol/mailbox.h"
#include "registry/registry.h"
#include "scan/pattern_sublinks.h"
#include "scan/paths.h"
#include "scan/scan.h"
#include "server/server.h"
#include "settings.h"
#include "sync/delta_log.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	gl_define_settings();

	if (gl_preloaded)
	{
		gl_registry_shmem_register();
		gl_delta_log_shmem_register();
		gl_ddl_watch_init();
		gl_reload_launcher_register();
		gl_mailbox_shmem_register();
		gl_case_fold_shmem_register();
		gl_server_register();
	}
	gl_planner_init();
	gl_count_paths_init();
	gl_pattern_sublinks_init();
	gl_executor_init();
}

/*
 * gpulike.cpu_engine_benchmark() was a benchmark, not part of the product:
 * version 1.2 drops it (test/bench/cpu_engine.sql brings its own module).
 * The 1.0 script still declares it, and CREATE FUNCTION ... LANGUAGE C
 * looks the symbol up, so the library keeps the name for installing 1.0
 * and for installations not yet updated.
 */
PG_FUNCTION_INFO_V1(gl_cpu_engine_benchmark);

Datum
gl_cpu_engine_benchmark(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("gpulike.cpu_engine_benchmark() was removed in gpulike 1.2"),
			 errhint("ALTER EXTENSION gpulike UPDATE drops it; the benchmark is test/bench/cpu_engine.sql in gpulike's source.")));
	PG_RETURN_NULL();			/* keep compiler quiet */
}
