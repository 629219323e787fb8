/*-------------------------------------------------------------------------
 *
 * server_shmem.h
 *	  The gpulike server's small block of shared memory: who the server is
 *	  (pid, generation, latch) and the mailbox where backends post the
 *	  handles of the DSM segments that carry their requests.
 *
 * A backend never talks to the server through this block beyond posting a
 * handle: the conversation itself runs over the shm_mq pair inside the
 * posted segment (protocol.h).  The block also lets a waiting backend notice
 * that the server died or was restarted: every start of the server bumps
 * the generation, and its exit clears the pid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SERVER_SHMEM_H
#define GPULIKE_SERVER_SHMEM_H

#include "storage/dsm.h"
#include "storage/latch.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

/*
 * Posted handles wait here only until the server's next loop iteration
 * attaches them, so a few dozen slots serve any number of backends.
 */
#define GL_POST_SLOTS	64

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
extern GlServerShared *gl_server_shared;

/* Hooks for gl_server_init(). */
extern void gl_server_shmem_register(void);

/* Backend side. */
extern bool gl_server_current(pid_t *pid, uint64 *generation,
							  TimestampTz *started_at);
extern bool gl_server_alive(uint64 generation);
extern bool gl_server_post(dsm_handle handle, uint64 generation);

/* Server side. */
extern uint64 gl_server_announce(void);
extern int	gl_server_take_posts(dsm_handle *handles, int max_handles);

#endif							/* GPULIKE_SERVER_SHMEM_H */
