import CTagLib

/// glibc keeps freed heap memory for reuse; after freeing many megabytes at once (an
/// old search table, a loader's scratch buffers) it would stay resident for the life
/// of the daemon. `malloc_trim(0)` hands the free pages back to the kernel.
enum MemoryTrim {
    static func releaseFreeMemory() {
        _ = qp_malloc_trim()
    }
}
