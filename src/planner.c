#include "postgres.h"
#include "gpulike.h"

void
gl_planner_init(void)
{
}
