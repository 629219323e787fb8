/*-------------------------------------------------------------------------
 *
 * settings.h
 *	  gpulike's settings (GUC variables), read by every module; written only
 *	  by settings.c.  Also what the CPU count they default to is.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SETTINGS_H
#define GPULIKE_SETTINGS_H

/* gpulike.device */
typedef enum GlDeviceChoice
{
	GL_DEVICE_AUTO,
	GL_DEVICE_GPU,
	GL_DEVICE_CPU
} GlDeviceChoice;

/* gpulike.recheck */
typedef enum GlRecheckChoice
{
	GL_RECHECK_AUTO,			/* only when the answer is lossy */
	GL_RECHECK_ALWAYS			/* every candidate */
} GlRecheckChoice;

/* Most GPUs the server uses; most parts of a column (gpulike.gpu_split_parts). */
#define GL_MAX_GPUS			16
#define GL_MAX_GPU_PARTS	16
/* Most matches the GPU runs at once (gpulike.gpu_lanes; GL_CUDA_LANES), and the default. */
#define GL_MAX_GPU_LANES	8
#define GL_DEFAULT_GPU_LANES	4

/* GUC variables (settings.c) */
extern bool gl_enabled;
extern int	gl_device_choice;
extern int	gl_cpu_threads;
extern int	gl_gpu_memory_mb;
extern int	gl_gpu_split_parts;
extern int	gl_gpu_split_min_kb;
extern int	gl_gpu_lanes;
extern bool gl_gpu_counting;
extern int	gl_debug_gpu_fail_part;
extern int	gl_debug_request_delay_ms;
extern int	gl_debug_compute_capability;
extern int	gl_host_memory_mb;
extern char *gl_values_directory;
extern int	gl_max_columns_per_owner;
extern int	gl_host_memory_per_owner_mb;
extern double gl_rebuild_garbage_fraction;
extern int	gl_delta_log_kb;
extern bool gl_regression_mode;
extern double gl_request_cost;
extern double gl_page_cost;
extern int	gl_recheck_choice;
extern bool gl_enable_parallel;
extern bool gl_enable_count;
extern int	gl_fallback_log_level;

/*
 * CPUs online, asked of the system once per process (each read opens a
 * file in /sys, and planning asks several times a query); and the CPU
 * engine's threads: gpulike.cpu_threads, or every CPU online with 0.
 */
extern int	gl_online_cpus(void);
extern int	gl_cpu_engine_threads(void);

/* Was the library loaded by shared_preload_libraries? */
extern bool gl_preloaded;

/* Define the GUCs and set gl_preloaded: _PG_init, once per process. */
extern void gl_define_settings(void);

#endif							/* GPULIKE_SETTINGS_H */
