#include "postgres.h"
#include "gpulike.h"

void
gl_sync_init(void)
{
}
