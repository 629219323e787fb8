/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  gpulike's settings: the GUC variables every module reads, and their
 *	  definitions (README, "Settings").
 *
 * The variables are plain globals, defined here and declared in
 * settings.h, the lowest layer: every module may read them, and
 * none but this file writes them.  gl_define_settings() runs from _PG_init
 * (gpulike.c) in every process that loads the library; the settings that
 * size shared memory or the server's devices exist only under
 * shared_preload_libraries (PGC_POSTMASTER).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <unistd.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "settings.h"

bool		gl_enabled = true;
int			gl_device_choice = GL_DEVICE_AUTO;
int			gl_cpu_threads = 0;
int			gl_gpu_memory_mb = 0;
int			gl_gpu_split_parts = 0;
int			gl_gpu_split_min_kb = 64 * 1024;
int			gl_gpu_lanes = GL_DEFAULT_GPU_LANES;
bool		gl_gpu_counting = true;
int			gl_debug_gpu_fail_part = -1;
int			gl_debug_request_delay_ms = 0;
int			gl_debug_compute_capability = 0;
int			gl_host_memory_mb = 4096;
char	   *gl_values_directory = NULL;
int			gl_max_columns_per_owner = 64;
int			gl_host_memory_per_owner_mb = 1024;
double		gl_rebuild_garbage_fraction = 0.5;
int			gl_delta_log_kb = 65536;
bool		gl_regression_mode = false;
double		gl_request_cost = 500.0;
double		gl_page_cost = 0.25;
int			gl_recheck_choice = GL_RECHECK_AUTO;
bool		gl_enable_parallel = true;
bool		gl_enable_count = true;
int			gl_fallback_log_level = LOG;

bool		gl_preloaded = false;

static const struct config_enum_entry device_options[] = {
	{"auto", GL_DEVICE_AUTO, false},
	{"gpu", GL_DEVICE_GPU, false},
	{"cpu", GL_DEVICE_CPU, false},
	{NULL, 0, false}
};

static const struct config_enum_entry recheck_options[] = {
	{"auto", GL_RECHECK_AUTO, false},
	{"always", GL_RECHECK_ALWAYS, false},
	{NULL, 0, false}
};

/* Levels a heap fallback may be reported at (client_min_messages' order). */
static const struct config_enum_entry fallback_log_level_options[] = {
	{"debug1", DEBUG1, false},
	{"log", LOG, false},
	{"notice", NOTICE, false},
	{"warning", WARNING, false},
	{NULL, 0, false}
};

void
gl_define_settings(void)
{
	gl_preloaded = process_shared_preload_libraries_in_progress;

	DefineCustomBoolVariable("gpulike.enabled",
							 "Lets the planner use gpulike's custom scan.",
							 NULL, &gl_enabled, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpulike.device",
							 "Engine that answers queries: auto (GPU when present), gpu, or cpu.",
							 "With gpu, a query runs on the CPU engine only if the GPU fails.",
							 &gl_device_choice, GL_DEVICE_AUTO, device_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.cpu_threads",
							"Threads of the CPU engine in the gpulike server (0 = one per core).",
							NULL, &gl_cpu_threads, 0, 0, 1024,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.gpu_memory",
							"Device memory the column caches may use (0 = 80% of the device).",
							NULL, &gl_gpu_memory_mb, 0, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.gpu_split_parts",
							"Parts a column is split into over the GPUs (0 = one per GPU).",
							"Parts go to the GPUs in turn; more parts than GPUs put several on one.",
							&gl_gpu_split_parts, 0, 0, GL_MAX_GPU_PARTS,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.gpu_split_min_size",
							"Columns smaller than this stay whole on one GPU.",
							NULL, &gl_gpu_split_min_kb, 64 * 1024, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.gpu_lanes",
							"Matches the GPU runs at once.",
							"Each lane holds a result bitmap of the column on the device and in pinned host memory; one lane makes the server's GPU matches take turns.",
							&gl_gpu_lanes, GL_DEFAULT_GPU_LANES, 1, GL_MAX_GPU_LANES,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpulike.gpu_counting",
							 "Counts the matches of count(*) requests on the GPU.",
							 "The GPU then returns the count and the rows a count must still check, not the column's result bitmap.",
							 &gl_gpu_counting, true,
							 PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.debug_gpu_fail_part",
							"Makes this part of every column fail on the GPU, as a device error would (-1 = none).",
							"For tests of the fallback to the CPU engine.",
							&gl_debug_gpu_fail_part, -1, -1, GL_MAX_GPU_PARTS - 1,
							PGC_SUSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.debug_request_delay",
							"Makes the server hold each of this session's requests this long before evaluating it.",
							"For tests of cancelled and timed-out requests; the server stops holding it once the session gives up.",
							&gl_debug_request_delay_ms, 0, 0, 600 * 1000,
							PGC_SUSET, GUC_UNIT_MS | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.host_memory",
							"Host memory the column caches may use.",
							NULL, &gl_host_memory_mb, 4096, 16, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomStringVariable("gpulike.values_directory",
							   "Directory for the cached columns' values, in files instead of memory (empty = memory).",
							   "The files have no names and go when their columns do; gpulike.host_memory does not count them. A column loaded after a change uses the new setting.",
							   &gl_values_directory, "",
							   PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.max_columns_per_owner",
							"Columns the tables of one role may have cached, unless a superuser caches them (-1 = no limit).",
							"Counted over all databases; checked by gpulike.cache().",
							&gl_max_columns_per_owner, 64, -1, INT_MAX,
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gpulike.host_memory_per_owner",
							"Host memory the cached columns of one role's tables may use, unless a superuser caches them (-1 = no limit).",
							"Counted over all databases; checked by gpulike.cache() as it loads.",
							&gl_host_memory_per_owner_mb, 1024, -1, INT_MAX,
							PGC_SUSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomRealVariable("gpulike.rebuild_garbage_fraction",
							 "Share of a cache's rows that may be dead or superseded versions before it is rebuilt.",
							 "The rebuild reads the table again, as gpulike.reload() does; 1 turns it off.",
							 &gl_rebuild_garbage_fraction, 0.5, 0.05, 1.0,
							 PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpulike.regression_mode",
							 "Hides device names and timings in EXPLAIN and status output.",
							 NULL, &gl_regression_mode, false,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("gpulike.request_cost",
							 "Planner cost of one request to the gpulike server.",
							 NULL, &gl_request_cost, 500.0, 0.0, 1e10,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("gpulike.page_cost",
							 "Planner cost of reading one heap page of candidate rows.",
							 NULL, &gl_page_cost, 0.25, 0.0, 1e10,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpulike.recheck",
							 "When the offloaded quals are evaluated again on the candidate rows.",
							 "auto: only when the server's answer is lossy; always: on every candidate.",
							 &gl_recheck_choice, GL_RECHECK_AUTO, recheck_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpulike.enable_parallel",
							 "Lets the planner use parallel GpuLike scans.",
							 NULL, &gl_enable_parallel, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("gpulike.fallback_log_level",
							 "Message level of the report when a GpuLike scan reads the heap instead of its cache.",
							 "Every such fallback is also counted in gpulike.stat_caches.",
							 &gl_fallback_log_level, LOG, fallback_log_level_options,
							 PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("gpulike.enable_count",
							 "Lets the planner answer count(*) from a GpuLike scan without returning its rows.",
							 NULL, &gl_enable_count, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	/* Set at server start, which only a preloaded library sees. */
	if (process_shared_preload_libraries_in_progress)
	{
		DefineCustomIntVariable("gpulike.delta_log_size",
								"Shared memory for row changes not yet applied to the caches.",
								"When it overflows, the affected caches are rebuilt.",
								&gl_delta_log_kb, 65536, 64, 4 * 1024 * 1024,
								PGC_POSTMASTER, GUC_UNIT_KB, NULL, NULL, NULL);
		DefineCustomIntVariable("gpulike.debug_compute_capability",
								"Compute capability the server's probe assumes for its GPUs, as 10 * major + minor (0 = their own).",
								"For tests of the refusal of GPUs older than the kernels support.",
								&gl_debug_compute_capability, 0, 0, 1000,
								PGC_POSTMASTER, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	}
	MarkGUCPrefixReserved("gpulike");
}

int
gl_online_cpus(void)
{
	static int	online = 0;

	if (online == 0)
	{
		long		cores = sysconf(_SC_NPROCESSORS_ONLN);

		online = cores > 0 ? (int) cores : 1;
	}
	return online;
}

int
gl_cpu_engine_threads(void)
{
	return gl_cpu_threads > 0 ? gl_cpu_threads : gl_online_cpus();
}
