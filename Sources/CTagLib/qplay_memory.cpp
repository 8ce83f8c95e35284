// The allocator's knobs for MemoryTrim (QPlayLibrary), which releases freed heap memory:
// glibc's malloc_trim and mallopt, which Swift cannot reach through Glibc's module.
#include "qplay_taglib.h"

// Any C library header first: it defines __GLIBC__, which the checks below read.
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

extern "C" int qp_malloc_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

extern "C" int qp_malloc_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}
