#include "postgres.h"
#include "gpulike.h"

void
gl_executor_init(void)
{
}
