/*-------------------------------------------------------------------------
 *
 * sync_init.c
 *	  Preload-time setup of the caching side of gpulike: shared memory for
 *	  the registry and the delta log, the DDL watch, and the background
 *	  reload launcher.
 *
 * Since PostgreSQL 15 shared memory and LWLock tranches may only be
 * requested from shmem_request_hook, and attached from shmem_startup_hook;
 * both hooks are chained, since the server room registers its own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"

#include "registry/registry_internal.h"
#include "cache/reload_worker.h"
#include "settings.h"
#include "cache/ddl_watch.h"
#include "sync/delta_log_internal.h"

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
sync_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	gl_registry_shmem_request();
	gl_delta_log_shmem_request();
}

static void
sync_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	gl_registry_shmem_init();
	gl_delta_log_shmem_init();
	LWLockRelease(AddinShmemInitLock);
}

void
gl_sync_init(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = sync_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = sync_shmem_startup;

	gl_ddl_watch_init();
	gl_reload_launcher_register();
}
