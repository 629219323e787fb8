/*-------------------------------------------------------------------------
 *
 * request_threads.h
 *	  The gpulike server's request threads: MATCH requests are evaluated
 *	  and answered off the server's main thread, several at once
 *	  (request_threads.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REQUEST_THREADS_H
#define GPULIKE_REQUEST_THREADS_H

/*
 * A unit of work.  run is called on a request thread and may use only
 * code that never calls palloc or elog; the job then comes back to the
 * main thread (gl_request_threads_done), in any order.
 */
typedef struct GlThreadJob
{
	void		(*run) (struct GlThreadJob *job);
	struct GlThreadJob *next;	/* the queues' */
} GlThreadJob;

/*
 * Start nthreads threads (signals blocked in them, so that they reach the
 * main thread only); returns how many started.  Fewer than one is an
 * error the caller reports.
 */
extern int	gl_request_threads_start(int nthreads);

/* Queue a job; false if no thread runs (the caller runs it itself). */
extern bool gl_request_threads_submit(GlThreadJob *job);

/*
 * Finished jobs, oldest first, taken off the done list (NULL: none).  The
 * file descriptor becomes readable when jobs finish; taking them drains it.
 */
extern GlThreadJob *gl_request_threads_done(void);
extern int	gl_request_threads_done_fd(void);

/* No job queued or running (the server waits for that before it exits). */
extern bool gl_request_threads_idle(void);

#endif							/* GPULIKE_REQUEST_THREADS_H */
