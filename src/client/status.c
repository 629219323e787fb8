/*-------------------------------------------------------------------------
 *
 * status.c
 *	  gpulike.status(): one row describing the gpulike server, obtained by
 *	  a STATUS request; and gpulike.preloaded() for the extension script.
 *
 * status() never fails for want of a server: when the library was not
 * preloaded, when no server runs, or when it does not answer within
 * GL_STATUS_TIMEOUT_MS, the row says so in its "server" column and the
 * other columns are NULL.  With gpulike.regression_mode on, what differs
 * between runs on one kind of host (device, memory, pid, uptime, thread
 * count) is hidden; the engine column still says cpu or cuda, so the
 * regression test selects only the columns that are the same everywhere.
 *
 * gpulike.devices() lists the GPUs, from the same STATUS reply.  Both
 * serve the older declarations of status() too (1.0: without
 * device_count, 1.1: without cpu_reason), so a newer library works before
 * ALTER EXTENSION gpulike UPDATE.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "protocol/mailbox.h"
#include "protocol/protocol.h"
#include "protocol/session.h"
#include "settings.h"

#define GL_STATUS_TIMEOUT_MS	10000
#define GL_STATUS_COLUMNS		14	/* 11 in version 1.0, 12 in 1.1 */
#define GL_DEVICES_COLUMNS		5

PG_FUNCTION_INFO_V1(gl_status);
PG_FUNCTION_INFO_V1(gl_devices);
PG_FUNCTION_INFO_V1(gl_preloaded_sql);

/* Ask the server; false (with *server_state) when it cannot answer. */
static bool
ask_server(GlStatusInfo *info, const char **server_state)
{
	GlSession  *session;
	GlMessageHeader msg;
	shm_mq_iovec iov;
	const char *why_not;
	Size		nbytes;
	void	   *data;
	GlReply		reply;

	if (!gl_mailbox_available())
	{
		*server_state = "not preloaded";
		return false;
	}
	session = gl_session_begin_conversation(&why_not);
	if (session == NULL)
	{
		*server_state = gl_server_running() ? "not responding" : "not running";
		return false;
	}
	memset(&msg, 0, sizeof(msg));
	msg.kind = GL_MSG_STATUS;
	iov.data = (const char *) &msg;
	iov.len = sizeof(msg);
	if (!gl_session_send(session, &iov, 1) ||
		!gl_session_receive(session, &nbytes, &data, GL_STATUS_TIMEOUT_MS) ||
		nbytes != sizeof(GlReply))
	{
		gl_session_end_conversation(session, false);
		*server_state = gl_server_running() ? "not responding" : "not running";
		return false;
	}
	memcpy(&reply, data, sizeof(reply));
	gl_session_end_conversation(session, true);
	if (reply.status != GL_REPLY_OK)
	{
		*server_state = "not responding";
		return false;
	}
	*info = reply.u.status;
	*server_state = "running";
	return true;
}

Datum
gl_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[GL_STATUS_COLUMNS];
	bool		nulls[GL_STATUS_COLUMNS];
	GlStatusInfo info;
	const char *server_state;
	pid_t		pid;
	TimestampTz started_at;
	bool		hide = gl_regression_mode;
	bool		answered;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (tupdesc->natts < GL_STATUS_COLUMNS - 3 || tupdesc->natts > GL_STATUS_COLUMNS)
		elog(ERROR, "gpulike.status() is declared with %d columns, expected %d",
			 tupdesc->natts, GL_STATUS_COLUMNS);

	memset(nulls, true, sizeof(nulls));
	memset(info.device_name, 0, sizeof(info.device_name));
	answered = ask_server(&info, &server_state);
	if (answered && !gl_server_current(&pid, NULL, &started_at))
	{
		answered = false;		/* it answered, then stopped */
		server_state = "not running";
	}
	if (answered)
	{
		nulls[1] = false;
		values[1] = CStringGetTextDatum(info.engine);
		if (hide)
		{
			nulls[2] = false;
			values[2] = CStringGetTextDatum("(hidden)");
		}
		else
		{
			if (info.has_device)
			{
				nulls[2] = nulls[3] = nulls[4] = false;
				values[2] = CStringGetTextDatum(info.device_name);
				values[3] = Int64GetDatum(info.device_total_bytes >> 20);
				values[4] = Int64GetDatum(info.device_free_bytes >> 20);
			}
			nulls[5] = nulls[6] = nulls[7] = false;
			values[5] = Int32GetDatum(info.cpu_threads);
			values[6] = Int32GetDatum(pid);
			values[7] = DirectFunctionCall2(timestamp_mi,
											TimestampTzGetDatum(GetCurrentTimestamp()),
											TimestampTzGetDatum(started_at));
		}
		nulls[8] = nulls[9] = nulls[10] = nulls[11] = false;
		values[8] = Int32GetDatum(info.ncolumns);
		values[9] = Int64GetDatum(info.host_bytes);
		values[10] = Int64GetDatum(info.device_bytes);
		values[11] = Int32GetDatum(info.ndevices);
		/* why the CPU engine: hidden, it names the host's driver */
		if (info.cpu_reason[0] != '\0')
		{
			nulls[12] = false;
			values[12] = CStringGetTextDatum(hide ? "(hidden)" : info.cpu_reason);
		}
		nulls[13] = false;
		values[13] = Int64GetDatum(info.file_bytes);
	}
	nulls[0] = false;
	values[0] = CStringGetTextDatum(server_state);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * One row per GPU the server uses; none without a GPU or a server.  In
 * regression mode names and memory sizes are hidden, as in status().
 */
Datum
gl_devices(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GlStatusInfo info;
	const char *server_state;

	InitMaterializedSRF(fcinfo, 0);
	if (!ask_server(&info, &server_state))
		return (Datum) 0;
	for (int d = 0; d < info.ndevices && d < GL_MAX_GPUS; d++)
	{
		Datum		values[GL_DEVICES_COLUMNS];
		bool		nulls[GL_DEVICES_COLUMNS] = {0};
		GlDeviceStatus *dev = &info.devices[d];

		values[0] = Int32GetDatum(d);
		if (gl_regression_mode)
		{
			values[1] = CStringGetTextDatum("(hidden)");
			nulls[2] = nulls[3] = true;
		}
		else
		{
			values[1] = CStringGetTextDatum(dev->name);
			values[2] = Int64GetDatum(dev->total_bytes >> 20);
			values[3] = Int64GetDatum(dev->free_bytes >> 20);
		}
		values[4] = Int64GetDatum(dev->cache_bytes);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* Was the library loaded through shared_preload_libraries? */
Datum
gl_preloaded_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(gl_preloaded);
}
