/*-------------------------------------------------------------------------
 *
 * mailbox.c
 *	  The server's identity block and request mailbox (see mailbox.h).
 *
 * Everything here is guarded by one spinlock: each critical section copies
 * or writes a few words, never calls out.  A backend posts a DSM handle into
 * a free slot, stamped with the server generation it saw, and sets the
 * server's latch; the server takes every posted handle of its own
 * generation on its next loop iteration.  A slot stamped with an older
 * generation belongs to a request addressed to a server that no longer
 * exists: its backend notices the new generation and gives up, and the new
 * server just frees the slot.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "storage/spin.h"

#include "protocol/mailbox.h"

typedef struct GlPostSlot
{
	bool		in_use;
	dsm_handle	handle;
	uint64		server_generation;	/* the server incarnation addressed */
} GlPostSlot;

typedef struct GlServerShared
{
	slock_t		mutex;			/* protects everything below */
	pid_t		server_pid;		/* 0 while no server runs */
	uint64		generation;		/* bumped at every server start */
	Latch	   *server_latch;
	TimestampTz started_at;
	GlPostSlot	posts[GL_POST_SLOTS];
} GlServerShared;

/* NULL unless the library was preloaded. */
static GlServerShared *mailbox = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
mailbox_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(GlServerShared)));
}

static void
mailbox_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	mailbox = ShmemInitStruct("gpulike server",
									   sizeof(GlServerShared), &found);
	if (!found)
	{
		memset(mailbox, 0, sizeof(GlServerShared));
		SpinLockInit(&mailbox->mutex);
	}
	LWLockRelease(AddinShmemInitLock);
}

void
gl_mailbox_shmem_register(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = mailbox_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = mailbox_shmem_startup;
}

bool
gl_mailbox_available(void)
{
	return mailbox != NULL;
}

/*
 * Is a server running?  Reports its pid, generation and start time.
 */
bool
gl_server_current(pid_t *pid, uint64 *generation, TimestampTz *started_at)
{
	GlServerShared *shared = mailbox;
	bool		running;

	if (shared == NULL)
		return false;
	SpinLockAcquire(&shared->mutex);
	running = shared->server_pid != 0;
	if (pid)
		*pid = shared->server_pid;
	if (generation)
		*generation = shared->generation;
	if (started_at)
		*started_at = shared->started_at;
	SpinLockRelease(&shared->mutex);
	return running;
}

bool
gl_server_running(void)
{
	return gl_server_current(NULL, NULL, NULL);
}

/* Is the server incarnation a request was addressed to still running? */
bool
gl_server_alive(uint64 generation)
{
	pid_t		pid;
	uint64		current;

	return gl_server_current(&pid, &current, NULL) && current == generation;
}

/*
 * Post a request segment for the server of the given generation and wake
 * it.  False when that server is gone or every slot is taken (the caller
 * waits a little and retries).
 */
bool
gl_server_post(dsm_handle handle, uint64 generation)
{
	GlServerShared *shared = mailbox;
	Latch	   *latch = NULL;
	int			i;

	SpinLockAcquire(&shared->mutex);
	if (shared->server_pid != 0 && shared->generation == generation)
	{
		for (i = 0; i < GL_POST_SLOTS; i++)
		{
			if (!shared->posts[i].in_use)
			{
				shared->posts[i].in_use = true;
				shared->posts[i].handle = handle;
				shared->posts[i].server_generation = generation;
				latch = shared->server_latch;
				break;
			}
		}
	}
	SpinLockRelease(&shared->mutex);

	if (latch == NULL)
		return false;
	SetLatch(latch);
	return true;
}

/*
 * On exit (normal, FATAL or ERROR escalated in the main loop) the server
 * withdraws its pid and latch, so waiting backends stop waiting.
 */
static void
server_withdraw(int code, Datum arg)
{
	GlServerShared *shared = mailbox;

	SpinLockAcquire(&shared->mutex);
	shared->server_pid = 0;
	shared->server_latch = NULL;
	SpinLockRelease(&shared->mutex);
}

/*
 * Called once by a starting server: take over the block under a new
 * generation and drop whatever was posted to a previous incarnation.
 */
uint64
gl_server_announce(void)
{
	GlServerShared *shared = mailbox;
	uint64		generation;
	TimestampTz now = GetCurrentTimestamp();

	before_shmem_exit(server_withdraw, (Datum) 0);

	SpinLockAcquire(&shared->mutex);
	shared->generation++;
	generation = shared->generation;
	shared->server_pid = MyProcPid;
	shared->server_latch = MyLatch;
	shared->started_at = now;
	memset(shared->posts, 0, sizeof(shared->posts));
	SpinLockRelease(&shared->mutex);
	return generation;
}

/* Server side: collect up to max_handles posted handles, freeing slots. */
int
gl_server_take_posts(dsm_handle *handles, int max_handles)
{
	GlServerShared *shared = mailbox;
	int			n = 0;
	int			i;

	SpinLockAcquire(&shared->mutex);
	for (i = 0; i < GL_POST_SLOTS && n < max_handles; i++)
	{
		GlPostSlot *post = &shared->posts[i];

		if (!post->in_use)
			continue;
		if (post->server_generation == shared->generation)
			handles[n++] = post->handle;
		post->in_use = false;
	}
	SpinLockRelease(&shared->mutex);
	return n;
}
