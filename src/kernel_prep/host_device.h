/*-------------------------------------------------------------------------
 *
 * host_device.h
 *	  The one qualifier that lets a small inline function of a table layout
 *	  be called both by the preparation (built by the system C++ compiler)
 *	  and by the kernels that read the table (built by nvcc).
 *
 * A layout header of this module (byte_dfa.h, classed_table.h) says where
 * an entry sits with a few lines of arithmetic; the preparation writes the
 * table with them and the stream kernel (cuda/kernels_stream.cu) reads it
 * with the very same lines, so the two cannot drift apart.  nvcc needs such
 * a function marked __host__ __device__; the system compiler knows neither
 * word.  GL_HOST_DEVICE is that mark under nvcc and nothing otherwise.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_HOST_DEVICE_H
#define GPULIKE_HOST_DEVICE_H

#ifdef __CUDACC__
#define GL_HOST_DEVICE __host__ __device__
#else
#define GL_HOST_DEVICE
#endif

#endif							/* GPULIKE_HOST_DEVICE_H */
