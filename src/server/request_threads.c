/*-------------------------------------------------------------------------
 *
 * request_threads.c
 *	  A fixed pool of threads for the server's MATCH requests (see
 *	  request_threads.h).
 *
 * The server's main thread owns everything of PostgreSQL's (sessions,
 * memory contexts, the store) and hands a request over only when what it
 * reads will not change until it comes back (serve.c says when).  The
 * threads take jobs from one FIFO queue under a mutex and put finished
 * ones on a done list; each finished job writes a byte to a pipe, which
 * the main thread waits on beside its latch (server.c), so a finished
 * request wakes it at once without touching the latch from a thread.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>

#include "server/request_threads.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queued = PTHREAD_COND_INITIALIZER;
static GlThreadJob *queue_head = NULL;
static GlThreadJob *queue_tail = NULL;
static GlThreadJob *done_head = NULL;
static GlThreadJob *done_tail = NULL;
static int	wake_pipe[2] = {-1, -1};
static int	running = 0;
static int	working = 0;		/* threads running a job */

static void
append(GlThreadJob **head, GlThreadJob **tail, GlThreadJob *job)
{
	job->next = NULL;
	if (*tail != NULL)
		(*tail)->next = job;
	else
		*head = job;
	*tail = job;
}

static void *
request_thread(void *arg)
{
	for (;;)
	{
		GlThreadJob *job;
		char		byte = 1;

		pthread_mutex_lock(&lock);
		while (queue_head == NULL)
			pthread_cond_wait(&queued, &lock);
		job = queue_head;
		queue_head = job->next;
		if (queue_head == NULL)
			queue_tail = NULL;
		working++;
		pthread_mutex_unlock(&lock);

		job->run(job);

		pthread_mutex_lock(&lock);
		working--;
		append(&done_head, &done_tail, job);
		pthread_mutex_unlock(&lock);
		/* a full pipe already wakes the main thread: nothing is lost */
		while (write(wake_pipe[1], &byte, 1) < 0 && errno == EINTR)
			;
	}
	return NULL;
}

int
gl_request_threads_start(int nthreads)
{
	sigset_t	all;
	sigset_t	saved;

	if (pipe(wake_pipe) != 0)
		return 0;
	(void) fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK);
	(void) fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
	(void) fcntl(wake_pipe[0], F_SETFD, FD_CLOEXEC);
	(void) fcntl(wake_pipe[1], F_SETFD, FD_CLOEXEC);

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &saved);
	for (int i = 0; i < nthreads; i++)
	{
		pthread_t	thread;

		if (pthread_create(&thread, NULL, request_thread, NULL) != 0)
			break;
		pthread_detach(thread);
		running++;
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return running;
}

bool
gl_request_threads_submit(GlThreadJob *job)
{
	if (running == 0)
		return false;
	pthread_mutex_lock(&lock);
	append(&queue_head, &queue_tail, job);
	pthread_cond_signal(&queued);
	pthread_mutex_unlock(&lock);
	return true;
}

GlThreadJob *
gl_request_threads_done(void)
{
	GlThreadJob *done;
	char		drain[64];

	while (read(wake_pipe[0], drain, sizeof(drain)) > 0)
		;
	pthread_mutex_lock(&lock);
	done = done_head;
	done_head = done_tail = NULL;
	pthread_mutex_unlock(&lock);
	return done;
}

bool
gl_request_threads_idle(void)
{
	bool		idle;

	pthread_mutex_lock(&lock);
	idle = working == 0 && queue_head == NULL;
	pthread_mutex_unlock(&lock);
	return idle;
}

int
gl_request_threads_done_fd(void)
{
	return wake_pipe[0];
}
