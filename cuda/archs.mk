# The GPUs the CUDA engine is built for, shared by the extension's Makefile
# and test/kernels/Makefile: machine code for each of CUDA_ARCHS (Ampere
# sm_80 and sm_86, Ada sm_89, Hopper sm_90) and PTX of the newest, which
# the driver compiles for GPUs that come later.  Older GPUs are refused at
# probe time (the server then uses the CPU engine and says why).  Narrow it
# to build faster for one machine:  make CUDA_ARCHS=90
CUDA_ARCHS ?= 80 86 89 90
CUDA_GENCODE = $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
	-gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))
