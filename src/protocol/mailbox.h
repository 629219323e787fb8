/*-------------------------------------------------------------------------
 *
 * mailbox.h
 *	  The gpulike server's small block of shared memory: who the server is
 *	  (pid, generation, latch) and the mailbox where backends post the
 *	  handles of the DSM segments that carry their requests (mailbox.c
 *	  alone reads and writes it).
 *
 * A backend never talks to the server through this block beyond posting a
 * handle: the conversation itself runs over the shm_mq pair inside the
 * posted segment (session.h).  The block also lets a waiting backend notice
 * that the server died or was restarted: every start of the server bumps
 * the generation, and its exit clears the pid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_MAILBOX_H
#define GPULIKE_MAILBOX_H

#include "storage/dsm.h"
#include "utils/timestamp.h"

/*
 * Posted handles wait here only until the server's next loop iteration
 * attaches them, so a few dozen slots serve any number of backends.
 */
#define GL_POST_SLOTS	64

/* Reserve the mailbox (_PG_init, under shared_preload_libraries). */
extern void gl_mailbox_shmem_register(void);

/* Is there a mailbox at all (false unless the library was preloaded)? */
extern bool gl_mailbox_available(void);

/* Backend side. */
extern bool gl_server_current(pid_t *pid, uint64 *generation,
							  TimestampTz *started_at);
extern bool gl_server_alive(uint64 generation);
/* Is a server process up (announced and not withdrawn)? */
extern bool gl_server_running(void);
extern bool gl_server_post(dsm_handle handle, uint64 generation);

/* Server side. */
extern uint64 gl_server_announce(void);
extern int	gl_server_take_posts(dsm_handle *handles, int max_handles);

#endif							/* GPULIKE_MAILBOX_H */
