#include "postgres.h"
#include "gpulike.h"

void
gl_server_init(void)
{
}
